"""`brimstone odds`: ask a question of a posse (played here, on every core) or of a table on a running service,
print the options side by side, and with `--plot FILE.png` draw the histograms (matplotlib, the `plot` extra).

    brimstone odds --heroes 4 [--trials 5000] [--seed 7] [--sizes small large] [--plot odds.png]
    brimstone odds --heroes 4 --precision 1 [--trials 20000]   (each option stops once its chances are +-1 point)
    brimstone odds --session K7QX2M --token TOKEN [--url http://127.0.0.1:8000] [--question choice]

Here the engine alone is needed; `--session` speaks to the service over HTTP with the standard library.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TextIO

from shared_rules import odds
from shared_rules.engine import new_session
from shared_rules.odds import Plan, Sample
from shared_rules.simulate import sample_heroes

CHUNK = 500
TRIALS = 5000
PRECISION_TRIALS = 20_000
HISTOGRAMS = (("posse.xp", "XP"), ("posse.gold", "Gold"), ("posse.wounds", "Wounds"),
              ("posse.sanity_damage", "Sanity Damage"), ("posse.corruption", "Corruption Points"))


def add_parser(commands: Any) -> None:
    """The `odds` sub-command's arguments."""
    ask = commands.add_parser("odds", help="the odds of each option: which Town size, or the choice waiting")
    who = ask.add_mutually_exclusive_group()
    who.add_argument("--heroes", type=int, default=4, choices=range(1, 7), metavar="N",
                     help="N sample heroes of the four classes (1-6, default 4)")
    who.add_argument("--posse", metavar="FILE", help="a JSON list of heroes (the codec's form) instead")
    who.add_argument("--session", metavar="CODE", help="ask a running service about this table's state")
    ask.add_argument("--question", default=None, help="town_size (default) or choice (at a choice prompt)")
    ask.add_argument("--sizes", nargs="+", choices=("small", "medium", "large"), help="compare only these sizes")
    ask.add_argument("--trials", type=int, default=None,
                     help=f"trials per option (default {TRIALS}; with --precision the most per option, default "
                          f"{PRECISION_TRIALS})")
    ask.add_argument("--precision", type=float, default=None, metavar="POINTS",
                     help="stop each option once every chance it reports is within +-POINTS percentage points (95%%)")
    ask.add_argument("--seed", type=int, default=0, help="the seed of the trials (same seed, same answer)")
    ask.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes to play on (default: all)")
    ask.add_argument("--url", default="http://127.0.0.1:8000", help="the service, with --session")
    ask.add_argument("--token", default=os.environ.get("BRIMSTONE_TOKEN"), help="the table token, with --session "
                     "(default BRIMSTONE_TOKEN)")
    ask.add_argument("--plot", metavar="FILE.png", help="write the histograms and chances as a PNG (matplotlib)")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Ask, print the comparison, and plot it when asked."""
    from services.cli import load_posse

    question = args.question or "town_size"
    params: dict[str, Any] = {"sizes": list(args.sizes)} if args.sizes else {}
    precision = None if args.precision is None else args.precision / 100
    if precision is not None and not 0.001 <= precision <= 0.5:
        raise ValueError(f"--precision: from 0.1 to 50 percentage points, got {args.precision}")
    trials = args.trials or (TRIALS if precision is None else PRECISION_TRIALS)
    if args.session:
        answer = ask_service(args.url, args.session, args.token, question, params, trials, args.seed, precision)
    else:
        heroes = load_posse(args.posse) if args.posse else sample_heroes(args.heroes)
        plan = odds.plan(new_session(heroes), question, params)
        answer = ask_here(plan, trials, args.seed, args.workers, precision)
    out.write(table(answer))
    if args.plot:
        plot(answer, args.plot)
        out.write(f"\nWrote {args.plot}\n")
    return 0


def ask_here(plan: Plan, trials: int, seed: int, workers: int, precision: float | None = None) -> dict[str, Any]:
    """Every option's trials in chunks on `workers` processes (one process: in this one). With `precision`, an
    option stops at the first of its pieces where its chances are within it (`odds.settle`): the same answer
    however many processes played it.

    Pieces go out in order, one waiting behind each busy process, and only for options still open; once every
    option is settled a piece still running that nobody needs stops at its next progress check, so it costs no
    wait. A process that dies fails the question (ChildProcessError) rather than leave it waiting for the lost
    piece."""
    if workers <= 1:
        return odds.ask(plan, trials, seed=seed, precision=precision, chunk=CHUNK)
    cut = odds.option_pieces(plan.question, trials, CHUNK, stopping=precision is not None)
    pieces = [(key, start, count) for start, count in cut for key in (c.key for c in plan.options)]
    results: dict[int, Sample] = {}
    samples: dict[str, Sample] = {}
    settled: set[str] = set()  # within the precision: no more of its pieces
    memos = {c.key: odds.Settled() for c in plan.options}  # each piece merged and checked once
    arrived: queue.SimpleQueue[tuple[int, Sample | BaseException]] = queue.SimpleQueue()
    waiting = iter(enumerate(pieces))
    flying: dict[int, str] = {}
    context = multiprocessing.get_context("fork")
    stop = context.Event()  # set once every option is settled: a piece still playing ends at its next progress check
    pool = ProcessPoolExecutor(min(workers, len(pieces)), mp_context=context, initializer=_arm, initargs=(stop,))
    try:

        def send_next() -> None:
            for index, piece in waiting:
                if piece[0] in settled:
                    continue
                flying[index] = piece[0]
                future = pool.submit(_chunk, (plan, *piece, seed))
                future.add_done_callback(lambda done, i=index: done.cancelled()
                                         or arrived.put((i, done.exception() or done.result())))
                return

        for _ in range(min(workers, len(pieces)) + 1):
            send_next()
        while any(key not in settled for key in flying.values()):
            index, result = arrived.get()
            key = flying.pop(index)
            if isinstance(result, BrokenProcessPool):
                raise ChildProcessError(f"--workers: a process playing the odds ended unexpectedly ({result}); "
                                        f"--workers 1 plays them in this one")
            if isinstance(result, BaseException):
                raise result
            results[index] = result
            if key not in settled:
                chunks = [results.get(i) for i, piece in enumerate(pieces) if piece[0] == key]
                samples[key], met = odds.settle(plan, chunks, precision, memos[key])
                if met:
                    settled.add(key)
            send_next()
    finally:
        stop.set()  # pieces nobody needs stop within ~2% of their trials; those not started are dropped
        pool.shutdown(wait=True, cancel_futures=True)
    return odds.answer(plan, samples, trials=trials, precision=precision)


class _Stopped(Exception):
    """A piece nobody needs any more, ended at its progress check."""


_stop: Any = None  # in a pool process: the question's stop event (set when every option is settled)


def _arm(stop: Any) -> None:
    """The pool process's initializer: the event its pieces watch. The processes are not killed instead: one killed
    while it sends its result leaves the executor's reader waiting for the rest, and the command never exits."""
    global _stop
    _stop = stop


def _check(done: int) -> None:
    if _stop is not None and _stop.is_set():
        raise _Stopped(f"stopped after {done} trials: every option is settled")


def _chunk(job: tuple[Plan, str, int, int, int]) -> Sample:
    plan, key, start, count, seed = job
    return odds.run_chunk(plan, key, start, count, seed=seed, progress=_check)


def ask_service(url: str, session: str, token: str | None, question: str, params: dict[str, Any], trials: int,
                seed: int, precision: float | None = None) -> dict[str, Any]:
    """Ask the service about a table and poll until the answer is complete (progress on stderr)."""
    if not token:
        raise ValueError("--token (or BRIMSTONE_TOKEN): the table token opens the table's state")
    body = {"question": question, "session_id": session, "params": params, "trials": trials, "seed": seed,
            "precision": precision}
    job = _http("POST", f"{url.rstrip('/')}/v1/odds", token, body)
    while job["status"] in ("queued", "running"):
        print(f"\r  {job['progress']:6.1%} of {job['trials']} trials per option", end="", file=sys.stderr)
        time.sleep(0.25)
        job = _http("GET", f"{url.rstrip('/')}/v1/odds/{job['job_id']}", token)
    print(file=sys.stderr)
    if job["status"] != "finished":
        raise ValueError(f"the odds job {job['status']}: {job.get('error') or 'no answer'}")
    answer: dict[str, Any] = job["answer"]
    return answer


def _http(method: str, url: str, token: str, body: Any = None) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the URL the user gave
            found: dict[str, Any] = json.loads(response.read())
            return found
    except urllib.error.HTTPError as error:
        problem = json.loads(error.read() or b"{}")
        raise ValueError(f"{problem.get('detail') or error.reason} (field {problem.get('field') or '-'})") from None


def _trials(answer: dict[str, Any]) -> str:
    """How many trials the figures rest on, and with a precision asked whether it was reached."""
    target = answer["precision"]["target"]
    if target is None:
        return f"{answer['trials']} trials per option"
    reached = answer["precision"]["reached"]
    if answer["precision_met"]:
        return f"every chance within ±{target:.1%} (widest ±{reached:.2%}), at most {answer['trials']} trials per option"
    return (f"NOT within ±{target:.1%}: the widest chance is ±{reached:.2%} after {answer['trials']} trials per "
            "option (ask for more trials)")


# ---- the comparison as text --------------------------------------------------------------------------------------
def _mean(figure: dict[str, Any]) -> str:
    if figure["mean"] is None:
        return "-"
    half = (figure["ci"][1] - figure["ci"][0]) / 2
    return f"{figure['mean']:.1f} ± {half:.1f}"


def _chance(figure: dict[str, Any]) -> str:
    if figure["p"] is None:
        return "-"
    return f"{figure['p']:.1%} ({figure['ci'][0]:.1%}-{figure['ci'][1]:.1%})"


def table(answer: dict[str, Any]) -> str:
    """The options side by side: expected figures (± the 95% interval's half-width), chances with their interval,
    per hero and for the posse, the towns; the best option of each headline figure marked with *."""
    options = answer["options"]
    rows: list[list[str]] = [["", *(f"{o['label']} (n={o['trials']})" for o in options)]]
    best = {row["figure"]: row["best"] for row in answer["comparison"]}

    def mark(figure: str, key: str, text: str) -> str:
        return f"{text} *" if best.get(figure) == key and len(options) > 1 else text

    rows.append(["Posse, expected"])
    for row in answer["comparison"]:
        if row["figure"].startswith("posse."):
            rows.append([f"  {row['label']}", *(mark(row["figure"], o["key"], _mean(o["expected"][row["figure"]]))
                                                for o in options)])
    rows.append(["  Travel Hazards", *(_mean(o["expected"]["journey.hazards"]) for o in options)])
    rows.append(["Chances"])
    for key, words in (("anyone_killed", "A hero is killed"), ("buildings_destroyed", "Buildings destroyed"),
                       ("turned_back", "Turned back")):
        rows.append([f"  {words}", *(mark(f"chance.{key}", o["key"], _chance(o["chances"][key])) for o in options)])
    for index, hero in enumerate(answer["heroes"]):
        rows.append([hero["name"]])
        for key, words in (("killed", "Killed"), ("knocked_out", "KO'd"), ("loses_transport", "Loses a Transport"),
                           ("gains_mutation", "Gains a Mutation")):
            rows.append([f"  {words}", *(_chance(o["heroes"][index]["chances"][key]) for o in options)])
        rows.append(["  XP", *(_mean(o["heroes"][index]["expected"]["xp"]) for o in options)])
    rows.append(["Town reached"])
    towns = sorted({t for o in options for t in o["town_types"]},
                   key=lambda t: -max(o["town_types"].get(t, {"p": 0})["p"] or 0 for o in options))
    for town in towns[:6]:
        rows.append([f"  {town}", *(_chance(o["town_types"][town]) if town in o["town_types"] else "-"
                                    for o in options)])
    widths = [max(len(r[i]) for r in rows if len(r) > i) for i in range(len(rows[0]))]
    lines = [f"{answer['title']}  ({_trials(answer)}; ± and ranges are 95% intervals; * best for the table)"]
    for row in rows:
        if len(row) == 1:
            lines.append(row[0])
        else:
            lines.append("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                                   for i, cell in enumerate(row)))
    return "\n".join(lines) + "\n"


# ---- the histograms as a picture --------------------------------------------------------------------------------
def plot(answer: dict[str, Any], path: str) -> None:
    """Histograms of the posse's XP, Gold, Wounds, Sanity Damage and Corruption per option, and the chances with
    their 95% intervals, in one PNG."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'brimstone-table[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    options = answer["options"]
    figure, axes = plt.subplots(2, 3, figsize=(15, 8.5))
    colours = ["#8c2d04", "#cc8a1e", "#3b6e8f", "#5b8c3a", "#7a4f9a"]
    width = 0.8 / max(1, len(options))  # the chance bars, side by side
    for axis, (name, words) in zip(axes.flat, HISTOGRAMS, strict=False):
        seen = sorted({value for o in options for value, _ in o["histograms"].get(name, [])})
        if not seen:
            continue
        step = _step(seen)
        if (seen[-1] - seen[0]) / step <= 30:  # few values: a bar for each, options side by side
            edges = [seen[0] - step / 2 + i * step for i in range(int((seen[-1] - seen[0]) / step) + 2)]
        else:  # XP and Gold spread wide: 30 bins shared by every option
            edges = [seen[0] + (seen[-1] - seen[0]) * i / 30 for i in range(31)]
        for index, option in enumerate(options):
            bars = option["histograms"].get(name, [])
            total = sum(count for _, count in bars) or 1
            colour = colours[index % len(colours)]
            axis.hist([value for value, _ in bars], bins=edges, weights=[count / total for _, count in bars],
                      histtype="stepfilled", alpha=0.25, color=colour)
            axis.hist([value for value, _ in bars], bins=edges, weights=[count / total for _, count in bars],
                      histtype="step", linewidth=1.6, color=colour, label=option["label"])
            mean = option["expected"][name]["mean"]
            if mean is not None:
                axis.axvline(mean, color=colour, linestyle="--", linewidth=1.2)
        axis.set_title(f"Posse {words} (dashed: expected)")
        axis.set_ylabel("share of trials")
        axis.legend(fontsize=8)
    chances = axes.flat[5]
    labels = ["A hero is killed", "Buildings destroyed", "Turned back"]
    keys = ["anyone_killed", "buildings_destroyed", "turned_back"]
    for index, option in enumerate(options):
        ps = [option["chances"][k]["p"] or 0 for k in keys]
        errors = [[p - (option["chances"][k]["ci"] or [0, 0])[0] for p, k in zip(ps, keys, strict=True)],
                  [(option["chances"][k]["ci"] or [0, 0])[1] - p for p, k in zip(ps, keys, strict=True)]]
        chances.bar([i + (index - (len(options) - 1) / 2) * width for i in range(len(keys))], ps, width=width,
                    yerr=errors, capsize=3, color=colours[index % len(colours)], label=option["label"])
    chances.set_xticks(range(len(keys)), labels, fontsize=8)
    chances.set_title("Chances (bars: 95% intervals)")
    chances.legend(fontsize=8)
    figure.suptitle(f"{answer['title']}  {answer['trials']} trials per option")
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)


def _step(values: Sequence[int]) -> float:
    """The spacing of a histogram's values (XP moves in 5s and 25s, Gold in $25s), so bars fill their slot."""
    gaps = [b - a for a, b in zip(values, values[1:], strict=False) if b > a]
    return float(min(gaps)) if gaps else 1.0

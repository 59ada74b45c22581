"""What a client may send now: one entry per command type the engine would accept, with the values it may take."""

from __future__ import annotations

from dataclasses import dataclass, field

from .meta import meta, ref


@dataclass(frozen=True, slots=True)
class LegalCommand:
    """A command a client may send now, with the values it may take (`options`) and who sends it (`hero`)."""

    type: str = field(metadata=meta(choices=ref("shared_rules.commands", "COMMAND_TYPES"), enum="CommandType"))
    prompt: str = ""
    hero: str | None = None
    options: tuple[str, ...] = ()
    note: str = ""

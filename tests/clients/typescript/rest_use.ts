// Compiled against the types openapi-typescript generates from openapi/openapi.json (test_generated_clients.py):
// what a TypeScript client writes, checked by tsc --strict.
import type { components, paths } from "./api";

type CommandInput = components["schemas"]["CommandInput"];
type View = paths["/v1/sessions/{session_id}"]["get"]["responses"][200]["content"]["application/json"];
type Written = paths["/v1/sessions/{session_id}/commands"]["post"]["responses"][200]["content"]["application/json"];
type Problem = components["schemas"]["Problem"];

export const roll: CommandInput = { type: "roll_hazard", dice: [[3, 5], 35] };
export const size: CommandInput = { type: "choose_town_size", size: "medium" };
export const adjust: CommandInput = {
  type: "adjust",
  hero: "hanzo",
  effects: [{ op: "change", field: "gold", amount: 25 }, { op: "add_item", name: "Lantern", tags: ["gear"] }],
};

export function namesAndWounds(view: View): Array<[string, number]> {
  return view.state.heroes.map((hero) => [hero.name, hero.wounds]);
}

export function rolled(written: Written): number[][] {
  return written.events.flatMap((event) => (event.type === "rolled" && event.roll ? [event.roll.faces] : []));
}

export function answerFor(view: View): CommandInput | null {
  const prompt = view.pending;
  if (prompt === null) return null;
  switch (prompt.kind) {
    case "roll":
      return { type: "roll", prompt: prompt.id };
    case "choice":
      return { type: "choose", option: prompt.options[0]?.key ?? "", prompt: prompt.id };
    case "reroll":
      return { type: "reroll", indices: [], prompt: prompt.id };
    case "card":
      return { type: "enter_card", prompt: prompt.id };
  }
}

export function isStale(problem: Problem): boolean {
  return problem.type === "/problems/stale-version" && problem.current_version !== undefined;
}

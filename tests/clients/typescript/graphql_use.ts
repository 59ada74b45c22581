// Compiled against the operation types GraphQL Code Generator writes for the documents in tests/clients/graphql
// and the phone app's own queries (test_generated_clients.py), checked by tsc --strict.
import type { CommandInput, PosseQuery, RollMutation, SendMutationVariables } from "./gql";

export function namesAndWounds(data: PosseQuery): string[] {
  return data.session.game.heroes.map((hero) => `${hero.name}: ${hero.wounds} wounds`);
}

export function facesRolled(data: RollMutation): number[][] {
  return data.sendCommand.events.flatMap((event) => (event.rolled ? [event.rolled.faces] : []));
}

export const command: CommandInput = { chooseTownSize: { size: "medium", dice: [[2], [5]] } };
export const variables: SendMutationVariables = { id: "K7QX2M", command, key: "k-1" };

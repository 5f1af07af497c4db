import { describe, expect, it } from '@jest/globals';
import type { Lease } from '#billing';
import { AccountSlots } from './account-slots.js';

/** A gate that counts the leases it grants and the ones released, under a limit. */
function countingGate() {
  let held = 0;
  let granted = 0;
  const gate = {
    acquire: async (_accountId: string, limit: number): Promise<Lease | null> => {
      if (held >= limit) return null;
      held++;
      granted++;
      return { id: String(granted), release: async () => void held-- };
    },
  };
  return { gate, held: () => held, granted: () => granted };
}

const until = async (check: () => boolean): Promise<void> => {
  const deadline = Date.now() + 2_000;
  while (!check() && Date.now() < deadline) await new Promise((next) => setTimeout(next, 10));
};

describe('AccountSlots', () => {
  it("hands a returned slot to the account's next page instead of taking a new one, and never more than the limit", async () => {
    const { gate, held, granted } = countingGate();
    const slots = new AccountSlots(gate);
    const a = await slots.acquire('acct', 2);
    const b = await slots.acquire('acct', 2);
    expect(await slots.acquire('acct', 2)).toBeNull();
    slots.release('acct', a!);
    // Kept: the next page gets the same lease, and the gate is not asked.
    expect(await slots.acquire('acct', 2)).toBe(a);
    expect(granted()).toBe(2);
    // Another account's page does not get it.
    slots.release('acct', b!);
    const other = await slots.acquire('other', 3);
    expect(other).not.toBeNull();
    expect(other).not.toBe(b);
    expect(held()).toBe(3);
  });

  it('releases a slot nobody took after a moment, and every kept slot on close', async () => {
    const { gate, held } = countingGate();
    const slots = new AccountSlots(gate);
    const a = (await slots.acquire('acct', 5))!;
    const b = (await slots.acquire('acct', 5))!;
    slots.release('acct', a);
    await until(() => held() === 1);
    expect(held()).toBe(1);
    slots.release('acct', b);
    await slots.close();
    expect(held()).toBe(0);
  });
});

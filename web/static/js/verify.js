// Checks a hand's scrambler rolls in the browser, independently of the server: the revealed
// seed against its published commitment, and every recorded roll against the dice the seed
// gives. The derivation is scheme "sabacc-hmac-sha256-v1", specified in
// companion/scrambler/seed.py:
//   commitment  = SHA-256(the 32 raw seed bytes), hex;
//   roll i      = bytes of HMAC-SHA256(key=seed, "roll:<i>:<k>") for k = 0, 1, ...;
//   each die    = the next byte b below 256 - (256 % sides) (others are skipped), b % sides + 1.
// Rolls without dice (the timer) take no number. How many dice of how many sides each trigger
// throws is not copied here: the server renders its own table into the page (`data-dice-table`).

import { fromHex, hmacSha256, sha256, toHex } from "./sha256.js";

const SEED_BYTES = 32;
const encoder = new TextEncoder();

function seedBytes(seedHex) {
  const raw = fromHex(seedHex);
  if (raw === null || raw.length !== SEED_BYTES) {
    throw new RangeError(`a seed is ${SEED_BYTES} bytes (${2 * SEED_BYTES} hex digits)`);
  }
  return raw;
}

/** The commitment of a seed (64 hex digits): SHA-256 of its raw bytes, in hex. */
export function commitmentOf(seedHex) {
  return toHex(sha256(seedBytes(seedHex)));
}

/** The faces of the hand's roll number `index` (from 0): `count` dice of `sides` sides. */
export function deriveDice(seedHex, index, count, sides) {
  const key = seedBytes(seedHex);
  const faces = [];
  if (count <= 0) return faces;
  const limit = 256 - (256 % sides); // fair faces only: bytes from here up are skipped
  for (let block = 0; ; block++) {
    for (const byte of hmacSha256(key, encoder.encode(`roll:${index}:${block}`))) {
      if (byte >= limit) continue;
      faces.push((byte % sides) + 1);
      if (faces.length === count) return faces;
    }
  }
}

/** The server's dice table, trigger -> [count, sides], from the page's `data-dice-table`. */
export function diceTable(root = document) {
  const holder = root.querySelector("[data-dice-table]");
  if (!holder) throw new Error("this page carries no dice table");
  return JSON.parse(holder.dataset.diceTable);
}

function sameDice(a, b) {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

function diceWords(dice) {
  return dice.length ? dice.join(" and ") : "none";
}

/**
 * Check a revealed hand: {seed, commitment, rolls: [{trigger, dice, entry?}]} in the order the
 * table made them (`entry`: the ledger entry, only for the words). `dice` defaults to the
 * page's dice table. Returns {ok, problems: [sentences], recomputed: [{index, trigger, dice}]}.
 */
export function checkHand({ seed, commitment, rolls = [] }, dice = diceTable()) {
  const problems = [];
  const recomputed = [];
  try {
    seedBytes(seed);
  } catch (err) {
    return { ok: false, problems: [`The seed is not valid: ${err.message}.`], recomputed };
  }
  const published = String(commitment ?? "").trim().toLowerCase();
  const actual = commitmentOf(seed);
  if (actual !== published) {
    problems.push(`The seed does not match the commitment: SHA-256 of the seed is ${actual}, `
      + `the published commitment is ${published || "missing"}.`);
  }
  let index = 0;
  rolls.forEach((roll, n) => {
    const recorded = (roll.dice ?? []).map(Number);
    const label = roll.entry != null ? `The roll of entry ${roll.entry}` : `Roll ${n + 1}`;
    const shape = Object.hasOwn(dice, roll.trigger) ? dice[roll.trigger] : null;
    if (shape === null || shape[0] === 0) {
      // The timer throws no dice and takes no number; dice for a trigger we do not know are
      // a problem, not something to skip quietly.
      if (recorded.length) problems.push(`${label}: unknown trigger “${roll.trigger}” with dice ${diceWords(recorded)}.`);
      return;
    }
    if (roll.byHand) {
      // The host entered these dice: the scrambler drew nothing, so they take no number.
      problems.push(`${label} (${roll.trigger}): dice ${diceWords(recorded)} rolled by hand, not from the seed.`);
      return;
    }
    const faces = deriveDice(seed, index, shape[0], shape[1]);
    recomputed.push({ index, trigger: roll.trigger, dice: faces });
    if (!sameDice(recorded, faces)) {
      problems.push(`${label} (${roll.trigger}) differs: the log records ${diceWords(recorded)}, `
        + `the seed gives ${diceWords(faces)}.`);
    }
    index += 1;
  });
  return { ok: problems.length === 0, problems, recomputed };
}

/** The outcome of `checkHand` in one sentence for people. */
export function summary(result) {
  if (!result.ok) {
    const n = result.problems.length;
    return `The dice do not check out: ${n === 1 ? "one problem" : `${n} problems`}.`;
  }
  const n = result.recomputed.length;
  if (n === 0) return "The seed matches the commitment; the hand threw no dice.";
  if (n === 1) return "The seed matches the commitment and gives the hand's only roll.";
  return `The seed matches the commitment and gives all ${n} rolls.`;
}

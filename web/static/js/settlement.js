// A settled hand (the response of POST /api/v1/settle) in plain words.
//
//   describeSettlement(response) ->
//     "Han wins the hand pot, 70, and the sabacc pot, 40; Lando called, won nothing, and pays 70."
//   handWords(hand) -> "ordinary, 19", "folded" (the game's kinds of hand, its `kind_words`)
//
// Used by the payout calculator and, later, by the live table's reveal screen. Returns plain
// strings: callers put them on the page with textContent. The words for each kind of hand
// come from the server (a rule set's `kind_words`): a page sets them with setKindWords.

let kindWords = {};
let potWords = "hand pot";
let kindMarks = {};
// The game's own words (a rule set's `words`, from the server: its pot, its fold, how it
// breaks a tie); until a page sets them, plain ones, and none for what a game may not have.
let gameWordsNow = {
  pot: "hand pot", fold: "fold", folds: "folds", folded: "folded", fold_fee: "fold fee",
  tie: "", tie_card: "", tie_started: "", draw_step: "draw", over_limit: "",
};

/** The words of the game in play for each kind of hand ({kind: words}, from the server) and
 * for the pot a hand is played for ("hand pot"). */
export function setKindWords(words, pot = null, marks = null) {
  if (words) kindWords = { ...words };
  if (pot) potWords = pot;
  if (marks) kindMarks = { ...marks };
}

/** How the result tables mark a hand of `kind` (a rule set's `kind_marks`): "special", "bust"
 * or "" (plain). */
export function kindMark(kind) {
  return (kind && kindMarks[kind]) || "";
}

/** Take the game's own words (a rule set's `words`): every page says these, never its own. */
export function setGameWordsOf(words) {
  if (!words) return;
  gameWordsNow = { ...gameWordsNow, ...words };
  potWords = gameWordsNow.pot;
}

/** The game's own words now: {pot, fold, folds, folded, fold_fee, tie, tie_card, ...}. */
export function gameWords() {
  return gameWordsNow;
}

/** A sentence's first word: "fold" -> "Fold". */
export function capital(words) {
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "";
}

/** A hand won by the last player left, in the game's words: "Han takes the hand pot, 4:
 * everyone else folded", and the sabacc pot where a shown hand took it. */
export function concededWords(settlement, names) {
  const n = names.get(settlement.winner) || settlement.winner;
  const shown = settlement.shown;
  const more = shown
    ? shown.sabacc_pot ? `; ${n} shows ${kindWords[shown.kind] || shown.kind} and takes the sabacc pot, ${shown.sabacc_pot}`
      : `; ${n} shows ${kindWords[shown.kind] || shown.kind}: the sabacc pot carries over`
    : "";
  return `${n} takes the ${potWords}, ${settlement.amount}: everyone else ${kindWords.folded || gameWordsNow.folded}${more}.`;
}

/** A settled hand's result sentence: the game's own words where its settlement has them,
 * else read from its pots and hands (`names`: seat id -> name; `named`: the settlement with
 * names for seat ids, live.js namedSettlement). */
export function resultWords(settlement, names, named) {
  if (typeof settlement.words === "string" && settlement.words) return settlement.words;
  return settlement.status === "conceded" ? concededWords(settlement, names) : describeSettlement(named(settlement, names));
}

/** Why a player pays a penalty, in the game's words: a penalty for a kind of hand is said as
 * that kind ("kind_words"); any other (a caller who won nothing) as `otherwise`. */
export function penaltyWords(reason, otherwise) {
  return kindWords[reason] || otherwise;
}

/** How one hand was judged, in words. */
export function handWords(hand) {
  const kind = kindWords[hand.kind] || String(hand.kind).replace(/_/g, " ");
  return hand.total === null || hand.total === undefined ? kind : `${kind}, ${hand.total}`;
}

/** "a", "a and b", "a, b and c". */
export function joinWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Split `amount` among `winners` (in seat order): odd credits one at a time from the first. */
function shares(amount, winners) {
  const base = Math.floor(amount / winners.length);
  let odd = amount - base * winners.length;
  const out = new Map();
  for (const w of winners) {
    out.set(w, base + (odd > 0 ? 1 : 0));
    odd -= 1;
  }
  return out;
}

/**
 * Merge neighbouring pots that the same players could win and the same players won (the
 * levels of one pot as far as players are concerned), so they are named once.
 */
function mergedPots(pots) {
  const out = [];
  for (const p of pots) {
    const last = out[out.length - 1];
    const key = (q) => `${[...q.eligible].sort().join("\u0000")}|${[...q.winners].sort().join("\u0000")}|${q.to_sabacc_pot}`;
    if (last && key(last) === key(p)) last.amount += p.amount;
    else out.push({ ...p, eligible: [...p.eligible], winners: [...p.winners] });
  }
  return out;
}

/**
 * The result sentence for a settled response.
 * @param {object} result  the JSON body of a `settled` response
 * @returns {string}
 */
export function describeSettlement(result) {
  const seat = new Map(result.hands.map((h, i) => [h.name, i]));
  const bySeat = (names) => [...names].sort((a, b) => seat.get(a) - seat.get(b));
  const conceded = result.hands.find((h) => h.kind === "conceded");
  const pots = mergedPots(result.pots);
  const contested = pots.filter((p) => p.eligible.length > 1 || p.to_sabacc_pot);
  const potName = (p) => {
    if (contested.length <= 1) return `the ${potWords}`;
    const i = contested.indexOf(p);
    return i === 0 ? "the main pot" : `side pot ${i}`;
  };

  // What each group of winners takes, in the order the pots come.
  const groups = new Map(); // key -> {winners, items: [string], received: Map}
  const group = (winners) => {
    const key = winners.join("\u0000");
    if (!groups.has(key)) groups.set(key, { winners, items: [] });
    return groups.get(key);
  };
  const potsTaken = new Map(result.hands.map((h) => [h.name, 0]));
  const clauses = [];
  const uncontested = [];
  const toSabaccPot = [];
  for (const p of pots) {
    if (p.to_sabacc_pot) {
      toSabaccPot.push(`${potName(p)}, ${p.amount},`);
      continue;
    }
    const winners = bySeat(p.winners);
    for (const [name, amount] of shares(p.amount, winners)) potsTaken.set(name, potsTaken.get(name) + amount);
    if (p.eligible.length === 1 && !conceded) {
      uncontested.push(`${winners[0]} takes back ${p.amount} that nobody else matched`);
      continue;
    }
    const name = conceded && contested.length <= 1 ? `the ${potWords}` : potName(p);
    const g = group(winners);
    g.items.push(winners.length > 1 ? `${name}, ${p.amount} (${describeShares(shares(p.amount, winners))})` : `${name}, ${p.amount}`);
  }
  // The sabacc pot: its size is read off the payouts (payout + penalty - pots taken).
  const sabaccWinners = bySeat(result.sabacc_pot_winners || []);
  if (sabaccWinners.length) {
    const paid = new Map(result.penalties.map((x) => [x.name, x.amount]));
    const won = new Map(sabaccWinners.map((n) => [n, result.payouts[n] + (paid.get(n) || 0) - potsTaken.get(n)]));
    const total = [...won.values()].reduce((a, b) => a + b, 0);
    const g = group(sabaccWinners);
    g.items.push(sabaccWinners.length > 1 ? `the sabacc pot, ${total} (${describeShares(won)})` : `the sabacc pot, ${total}`);
  }
  const winClauses = [];
  for (const g of groups.values()) {
    const verb = g.winners.length > 1 ? "split" : "wins";
    winClauses.push(`${joinWords(g.winners)} ${verb} ${g.items.join(", and ")}`);
  }
  if (conceded && winClauses.length) winClauses[0] += ` (everyone else ${kindWords.folded || gameWordsNow.folded})`;
  if (toSabaccPot.length) {
    // A pot that no eligible player could win (every one of them lost it) builds the sabacc pot.
    const goes = `${joinWords(toSabaccPot)} ${toSabaccPot.length > 1 ? "go" : "goes"} to the sabacc pot`;
    clauses.push(winClauses.length ? `${goes}: nobody who could win it is left` : `Nobody wins the hand: ${goes}`);
  } else if (!winClauses.length && !conceded) {
    winClauses.push("Nobody wins the hand");
  }
  const penaltyClauses = result.penalties.map((x) => {
    const why = penaltyWords(x.reason, "called, won nothing,");
    const short = x.shortfall ? ` (${x.shortfall} short: that is all they have)` : "";
    return `${x.name} ${why} and pays ${x.amount}${short}`;
  });
  const all = [...winClauses, ...uncontested, ...clauses, ...penaltyClauses];
  // Only the fixed words are capitalised: a player's name is shown exactly as typed.
  if (all.length && all[0].startsWith("nobody ")) all[0] = "N" + all[0].slice(1);
  return all.join("; ") + ".";
}

function describeShares(map) {
  return [...map].map(([name, amount]) => `${name} ${amount}`).join(", ");
}

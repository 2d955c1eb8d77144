// The revealed hands of a settled hand, as a table every phone, the display and the history
// page show: each player's cards (by name), total, kind (the game's kinds of hand), what
// they won or paid; then who took which pot and the penalties.
//
//   import { showdown } from "/static/js/showdown.js";
//   el.replaceChildren(showdown(settlement, cards, names, cardWords, { caption: "Hand 3" }));
//     settlement  state.hand.settlement, or a history entry's "settlement" (seat ids as names)
//     cards       {seat: [codes] | null} (a history entry's "cards"), or state.hand.players
//     names       Map(seat id -> name) (live.js seatNames)
//     cardWords   code -> the deck's name for the card
//
// Every name goes on the page as text (h()): a player called <script> shows as typed.

import { h, blockNames } from "./live.js";
import { concededWords, handWords, gameWords, capital, penaltyWords, kindMark } from "./settlement.js";

/** {seat: [codes]|null} from state.hand.players (a tie-break card appended: the tie's `card`,
 * blockNames("tie")) or a history entry. */
export function cardsBySeat(players) {
  if (!Array.isArray(players)) return players || {};
  const card = blockNames("tie").card;
  const out = {};
  for (const p of players) out[p.seat] = p.cards ? [...p.cards, ...(card && p[card] ? [p[card]] : [])] : null;
  return out;
}

/** The game's pot ("Hand pot") when one pot was contested, else "Main pot", "Side pot 1", ... (an unmatched
 * bet that goes back is no pot anyone won). */
function potLabel(pots, pot) {
  const contested = pots.filter((p) => p.eligible.length > 1 || p.to_sabacc_pot);
  const i = contested.indexOf(pot);
  return contested.length <= 1 ? capital(gameWords().pot) : i === 0 ? "Main pot" : `Side pot ${i}`;
}

/** Who took which pot and who paid what, one sentence each: ["Main pot, 9: Chewie", ...]. */
export function potLines(settlement, names) {
  const n = (s) => names.get(s) || s;
  if (settlement.status === "conceded" && settlement.words === undefined) {
    return [concededWords(settlement, names)];
  }
  const pots = settlement.pots || [];
  const lines = pots.map((p) => {
    if (p.eligible.length === 1 && !p.to_sabacc_pot) {
      return `The rest, ${p.amount}: to ${n(p.winners[0])} (nobody else is left in it).`;
    }
    const to = p.to_sabacc_pot ? "to the sabacc pot (nobody could win it)"
      : p.winners.map(n).join(" and ") + (p.winners.length > 1 ? " split it" : "");
    return `${potLabel(pots, p)}, ${p.amount}: ${to}.`;
  });
  const sabacc = settlement.sabacc_pot_winners || [];
  if (sabacc.length) lines.push(`Sabacc pot: ${sabacc.map(n).join(" and ")}${sabacc.length > 1 ? " split it" : ""}.`);
  for (const x of settlement.penalties || []) {
    const why = penaltyWords(x.reason, "called the hand and lost");
    lines.push(`${n(x.name)} ${why}: pays ${x.amount}${x.shortfall ? ` (${x.shortfall} short)` : ""}.`);
  }
  return lines;
}

/** The settled hand as a table and a list of the pots; see the top of this file. */
export function showdown(settlement, cards, names, cardWords, { caption = "The hands" } = {}) {
  const n = (s) => names.get(s) || s;
  const byseat = cardsBySeat(cards);
  const payouts = settlement.payouts || {};
  const penalty = new Map((settlement.penalties || []).map((x) => [x.name, x]));
  const won = new Map();
  const pots = settlement.pots || [];
  for (const p of pots) {
    if (p.to_sabacc_pot || p.eligible.length < 2) continue; // what nobody else is left in is no win
    for (const w of p.winners) won.set(w, [...(won.get(w) || []), potLabel(pots, p).toLowerCase()]);
  }
  for (const w of settlement.sabacc_pot_winners || []) won.set(w, [...(won.get(w) || []), "sabacc pot"]);
  // A tie broken by drawn cards (the names its game gives it: blockNames): a card dealt into the
  // hand, with the total and kind after it (`card`, `total`, `kind`), or the cards drawn, one a
  // draw, compared alone (`drawn`), each in a column of its own (the why tells who won it).
  const tie = blockNames("tie");
  const tieCard = (x) => (tie.total && tie.card ? x[tie.card] : undefined);
  const tieDrawn = (x) => (tie.drawn ? x[tie.drawn] : undefined);
  const anyTieCard = (settlement.hands || []).some(tieCard);
  const anyDrawn = (settlement.hands || []).some(tieDrawn);
  const shown = settlement.shown; // the last player's hand, shown for the sabacc pot
  // A settlement without judged hands (a game that words its own result): each player, their
  // shown cards, whether they folded or won, and the money.
  const players = Array.isArray(cards) ? cards : [];
  const folded = new Set(players.filter((p) => p.folded).map((p) => p.seat));
  const winners = settlement.winners || (settlement.winner ? [settlement.winner] : []);
  const plain = (seat) => ({
    name: seat, total: null, kind: null,
    why: folded.has(seat) ? capital(gameWords().folded) : winners.includes(seat) ? `Wins the ${gameWords().pot}` : "",
  });
  const hands = settlement.hands
    || (settlement.status === "conceded" && settlement.words === undefined
      ? Object.keys(payouts).map((seat) => (seat !== settlement.winner ? { name: seat, total: null, kind: "folded" }
        : shown ? { name: seat, total: shown.total, kind: shown.kind } : { name: seat, total: null, kind: "conceded" }))
      : (players.length ? players.map((p) => p.seat) : Object.keys(payouts)).map(plain));
  // The columns a game's hands have: totals and kinds only where it judges hands so.
  const anyTotal = hands.some((x) => x.total !== null && x.total !== undefined);
  const anyKind = hands.some((x) => x.kind);
  const nets = settlement.net || {};
  const signed = (v) => (v === undefined ? "—" : `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v)}`);
  const rows = hands.map((x) => {
    const dealt = tieCard(x);
    const codes = (byseat[x.name] || []).filter((c, i, all) => !(dealt && c === dealt && i === all.length - 1));
    const pay = payouts[x.name];
    const what = [];
    if (won.has(x.name)) what.push(`wins the ${won.get(x.name).join(", ")}`);
    if (shown && x.name === settlement.winner && shown.sabacc_pot) what.push(`takes the sabacc pot, ${shown.sabacc_pot}`);
    if (penalty.has(x.name)) what.push(`pays ${penalty.get(x.name).amount}`);
    // After a tie broken by one more card: that card and the total after it, beside the first total.
    const after = dealt ? `${cardWords(dealt)} → ${x[tie.total]} (${handWords({ kind: x[tie.kind], total: null })})` : "";
    const drawn = tieDrawn(x);
    const kind = (dealt && x[tie.kind]) || x.kind;
    return h("tr", { dataset: { seat: x.name, kind, mark: kindMark(kind) } },
      h("th", { scope: "row", class: "sd-name" }, n(x.name)),
      h("td", { class: "sd-cards", "data-label": "Cards" }, codes && codes.length ? codes.map(cardWords).join(", ") : "—"),
      anyTotal ? h("td", { class: "sd-total num", "data-label": "Total" }, x.total === null || x.total === undefined ? "—" : String(x.total)) : null,
      anyKind ? h("td", { class: "sd-kind", "data-label": "Hand" }, x.kind ? handWords({ ...x, total: null }) : "—") : null,
      // The columns' classes are the parts' names (sd-<card>, sd-<drawn>), as the pages have always had them.
      anyTieCard ? h("td", { class: `sd-${tie.card}`, "data-label": capital(gameWords().tie) }, after || "—") : null,
      anyDrawn ? h("td", { class: `sd-${tie.drawn.replace(/_/g, "-")}`, "data-label": capital(gameWords().tie) }, drawn ? drawn.map(cardWords).join(", then ") : "—") : null,
      h("td", { class: "sd-result", "data-label": "Why" }, x.why || what.join("; ") || "—"),
      h("td", { class: "sd-payout num", "data-label": "Payout" }, pay === undefined ? "—" : String(pay)),
      h("td", { class: "sd-net num", "data-label": "Net" }, signed(nets[x.name])));
  });
  const heads = ["Player", "Cards", ...(anyTotal ? ["Total"] : []), ...(anyKind ? ["Hand"] : []), ...(anyTieCard ? [capital(gameWords().tie)] : []), ...(anyDrawn ? [capital(gameWords().tie)] : []), "Why", "Payout", "Net"];
  const table = h("table", { class: "showdown-table" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, heads.map((t) =>
      h("th", { scope: "col", class: ["Total", "Payout", "Net"].includes(t) ? "num" : "" }, t)))),
    h("tbody", {}, rows));
  return h("div", { class: "showdown" },
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption }, table),
    h("ul", { class: "sd-pots" }, potLines(settlement, names).map((t) => h("li", {}, t))));
}

/**
 * Each row's place in the final standings (`rows`, as state.standings lists them): the game's
 * own `place` where it gave one (a game played to a winner: players out at the same reveal
 * share theirs; a player seated after the game began has none, null), else the row's position.
 * `shared`: another row has the same place.
 */
export function standingPlaces(rows) {
  const placed = rows.some((r) => r.place !== undefined);
  const places = rows.map((r, i) => (placed ? (r.place ?? null) : i + 1));
  return places.map((place) => ({
    place, shared: place !== null && places.filter((p) => p === place).length > 1,
  }));
}

/**
 * The final standings of an ended session (state.standings): place, name, net for the
 * evening, the stack and the chips to hand back (with how the table settles credits no chip
 * covers), and, where the table had a sabacc pot (`sabaccPot`, or a share of it paid), the
 * share of it. The phones' own line and the display read it.
 */
export function finalStandings(rows, caption = "Final standings", sabaccPot = false) {
  const signed = (v) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v)}`;
  const places = standingPlaces(rows);
  // A game that never has a sabacc pot shows no column of dashes for it.
  const pot = sabaccPot || rows.some((r) => r.sabacc_share);
  const body = rows.map((r, i) => h("tr", { dataset: { seat: r.seat } },
    h("td", { class: "num", "data-label": "Place", title: places[i].shared ? "shared" : null },
      places[i].place === null ? "—" : `${places[i].shared ? "=" : ""}${places[i].place}`),
    h("th", { scope: "row" }, r.name),
    h("td", { class: `num ${r.net > 0 ? "plus" : r.net < 0 ? "minus" : ""}`.trim(), "data-label": "Net" }, signed(r.net)),
    h("td", { class: "num", "data-label": "Stack" }, String(r.stack)),
    h("td", { class: "chips-words", "data-label": "Chips to hand back" }, r.chips ? r.chips.words : "—"),
    pot ? h("td", { class: "num", "data-label": "Sabacc pot share" }, r.sabacc_share ? String(r.sabacc_share) : "—") : null));
  const heads = ["Place", "Player", "Net", "Stack", "Chips to hand back", ...(pot ? ["Sabacc pot share"] : [])];
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "final-standings" },
      h("caption", { class: "visually-hidden" }, caption),
      h("thead", {}, h("tr", {}, heads.map((t) =>
        h("th", { scope: "col", class: ["Place", "Net", "Stack", "Sabacc pot share"].includes(t) ? "num" : "" }, t)))),
      h("tbody", {}, body)));
}

// The table display (/t/<code>/display): a TV or tablet in the middle of the table, seen from
// every chair. Pots, seats and stacks, whose move, each player's cards face up, the last actions, and a
// shift announcement big enough to read across the room. A spectator: it holds no token.
//
// Everything shown comes from the server's JSON and goes on the page with textContent (h()).

import {
  LiveTable, h, eventWords, namedSettlement, seatNames, turnWords, keepScreenOn, beep, soundReady, diceWords, gameWords,
  hasSabaccPot, handSizeWords, outOfGame,
} from "./live.js";
import { loadDeck, cardName, pageDeckName } from "./cardpicker.js";
import { resultWords } from "./settlement.js";
import { tableFacts, seatFacts, renderFacts, seatFactsLine } from "./facts.js";
import { showdown, finalStandings } from "./showdown.js";

const root = document.getElementById("play-root");
const code = root.dataset.code;
const $ = (id) => document.getElementById(id);
const log = [];
const LOG_SIZE = 8;
let deck = null;
let shiftShownAt = 0;
let shiftTimer = null;
// The announcement stays up until play goes on, or this long at most.
const SHIFT_SHOWN_MS = 30000;

const cardWords = (c) => (deck ? cardName(deck, c) : c);

/** "2", or "2 of 3" where a hand lasts a fixed number of rounds. */
function roundWords(state, hand) {
  const rounds = state.rules.ending && state.rules.ending.rounds;
  return rounds ? `${hand.round} of ${rounds}` : String(hand.round);
}

function render(state, events) {
  const names = seatNames(state);
  const hand = state.hand;
  const live = hand && hand.stage !== "settled" ? hand : null;

  $("d-hand-pot").textContent = String(live ? live.hand_pot : 0);
  $("d-sabacc-pot").textContent = String(state.sabacc_pot);
  $("d-sabacc-pot").closest(".d-pot").hidden = !hasSabaccPot(state);
  const pots = live ? (live.pots || []).filter((p) => p.eligible.length > 1) : [];
  $("d-side-pots").textContent = pots.length > 1
    ? pots.map((p, i) => `${i ? `side pot ${i}` : "main pot"}: ${p.amount}`).join(" · ")
    : "";
  $("d-hand-title").textContent = hand
    ? (live && live.stage === "play" && state.rules.ending ? `Hand ${hand.no} · round ${roundWords(state, hand)}${hand.phase ? ` · ${hand.phase}` : ""}` : `Hand ${hand.no}`)
    : "Waiting for the first hand";
  $("d-turn").textContent = turnWords(state, names);
  // The dealer's job, in words: "Deal Han 1 card".
  const jobs = live && live.deal ? live.deal : [];
  $("d-deal").hidden = !jobs.length;
  $("d-deal").textContent = jobs.length ? `${names.get(live.dealer) ? `${names.get(live.dealer)}, deal: ` : ""}${jobs.map((j) => j.words).join(" · ")}` : "";
  const roll = hand && hand.last_roll;
  // A roll its game words (what the dice mean: a target, not faces) is shown in those words.
  $("d-roll").textContent = !roll ? "" : roll.words ? roll.words
    : `Last roll: ${diceWords(roll.dice)}${roll.shift ? " — a shift" : ""}`;
  renderFacts($("d-table-facts"), tableFacts(state));
  const shift = live && live.shift;
  $("d-last-shift").hidden = !shift;
  $("d-last-shift").textContent = shift ? `Last shift: ${shift.kind} shift in round ${shift.round}` : "";

  if (events.length && !events.some((e) => e.type === "shift") && Date.now() - shiftShownAt > 1500) {
    $("d-shift").hidden = true; // play went on after the announcement
  }
  for (const ev of events) {
    const words = eventWords(ev, names);
    if (words) log.unshift(words);
    if (ev.type === "shift") announceShift(ev, names, state);
  }
  log.splice(LOG_SIZE);
  $("d-log").replaceChildren(...log.map((w) => h("li", {}, w)));

  $("d-game").textContent = state.game || state.rules.title;
  // The cash-out: the final standings replace the last result.
  $("d-final").hidden = !state.ended;
  root.classList.toggle("is-final", Boolean(state.ended));
  if (state.ended && state.standings) {
    $("d-final-words").textContent = state.carried_sabacc_pot
      ? `The session is over. The sabacc pot (${state.carried_sabacc_pot}) is carried to the next session.`
      : "The session is over. Hand back these chips to the bank.";
    $("d-final-table").replaceChildren(finalStandings(state.standings, "Final standings", hasSabaccPot(state)));
  }
  // The result stays up between hands: every revealed hand, its total and kind, the pots.
  const settled = hand && hand.stage === "settled" && hand.settlement && !state.ended;
  $("d-result").hidden = !settled;
  root.classList.toggle("is-settled", Boolean(settled)); // the result takes the room of older lines
  if (settled) {
    try {
      $("d-result-words").textContent = resultWords(hand.settlement, names, namedSettlement);
    } catch (err) {
      $("d-result-words").textContent = "";
    }
    $("d-result-title").textContent = `Hand ${hand.no}: result`;
    $("d-result-hands").replaceChildren(showdown(hand.settlement, hand.players, names, cardWords, { caption: `Hand ${hand.no}: the hands` }));
  }
  fitResult();

  const seats = state.seats.map((s) => {
    const out = outOfGame(state, s.seat);
    const p = live && !out ? live.players.find((q) => q.seat === s.seat) : null;
    const moving = live && (live.to_act === s.seat || (!live.to_act && (live.do === "roll" ? live.roller : live.turn) === s.seat));
    const tags = [];
    if (state.dealer === s.seat) tags.push("dealer");
    if (moving) tags.push("to move");
    if (p && p.folded) tags.push(gameWords().folded);
    else if (p && p.all_in) tags.push("all-in");
    if (s.sitting_out) tags.push("sitting out");
    if (out) tags.push("out");
    else if (live && !p && !s.sitting_out) tags.push("not in this hand");
    if (live && live.called_by === s.seat) tags.push("called");
    const job = jobs.find((j) => j.seat === s.seat);
    const li = h("li", { class: `d-seat${moving ? " is-moving" : ""}${p && p.folded ? " is-folded" : ""}`, dataset: { seat: s.seat } },
      h("span", { class: "d-name" }, s.name),
      h("span", { class: "d-stack", "aria-label": `stack ${s.stack}` }, String(s.stack)),
      h("span", { class: "d-tags" }, tags.map((t) => h("span", { class: "tag" }, t))),
      p ? h("span", { class: "d-facts" }, h("span", { class: "d-committed" }, `in the pot ${p.committed}`),
        `${p.bet ? ` · bet ${p.bet}` : ""}${handSizeWords(p) ? ` · ${handSizeWords(p)}` : ""}`) : null,
      seatFactsLine(seatFacts(state, s.seat), "d-facts d-game-facts-seat"),
      job ? h("span", { class: "d-job" }, job.words) : null,
      p && p.cards ? h("span", { class: "d-cards" }, `Hand: ${p.cards.map(cardWords).join(", ")}`) : null);
    return li;
  });
  $("d-seats").replaceChildren(...seats);
}

/** Issue 28 item 15: the result is read from the chairs, so it takes the room the screen has:
 * the largest size (`--result-size`, in rem, at most 3) at which the page still fits the
 * screen; eight players' hands fit at the smallest. */
function fitResult() {
  const box = $("d-result");
  if (box.hidden) { box.style.removeProperty("--result-size"); return; }
  const fits = (size) => {
    box.style.setProperty("--result-size", String(size));
    return document.documentElement.scrollHeight <= window.innerHeight;
  };
  let lo = 1.05, hi = 3;
  if (fits(hi)) return;
  for (let i = 0; i < 7; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid; else hi = mid;
  }
  fits(lo);
}
window.addEventListener("resize", fitResult);

function announceShift(ev, names, state) {
  shiftShownAt = Date.now();
  $("d-shift-kind").textContent = ev.announcement || ""; // the engine's one wording of it, as on the phones
  $("d-shift-list").replaceChildren(...Object.entries(ev.instructions || {}).map(([seat, words]) =>
    h("li", {}, h("strong", {}, names.get(seat) || seat), ": ", words)));
  // The shift's own deal (after the third round's roll the reveal has already taken it off the hand).
  const jobs = ev.deal || ((state.hand && state.hand.deal) || []).map((j) => j.words);
  $("d-shift-deal").textContent = jobs.length ? `Dealer: ${jobs.join(" · ")}` : "";
  $("d-shift").hidden = false;
  clearTimeout(shiftTimer);
  shiftTimer = setTimeout(() => { $("d-shift").hidden = true; }, SHIFT_SHOWN_MS);
  const flash = $("flash");
  flash.classList.remove("on");
  void flash.offsetWidth;
  flash.classList.add("on");
  beep();
}

$("d-shift").addEventListener("click", () => { $("d-shift").hidden = true; });
// A TV is rarely tapped: browsers only play sound after a tap, so ask for one.
$("d-sound").addEventListener("click", () => {
  // The tap itself made sound possible (live.js listens for it): let it be heard once.
  setTimeout(() => {
    if (soundReady()) {
      $("d-sound").hidden = true;
      beep();
    }
  }, 100);
});
/**
 * The display's key, from the link the host opened (`#key=...`: a fragment is never sent to
 * the server or in a Referer) or kept from an earlier visit: it lets the display's stream in
 * even when guests fill the spectators' places.
 */
function displayKey(tableCode) {
  const name = `sabacc-display-key:${tableCode.toUpperCase()}`;
  const given = new URLSearchParams(location.hash.slice(1)).get("key");
  try {
    if (given) localStorage.setItem(name, given);
    return given || localStorage.getItem(name);
  } catch (err) {
    return given;
  }
}

keepScreenOn();
// A game without cards to pick has no deck: the shown cards are the game's own words.
if (pageDeckName()) loadDeck().then((d) => { deck = d; if (live.state) render(live.state, []); });
const live = new LiveTable(code, {
  displayKey: displayKey(code),
  onState: render,
  onStatus(status, words) {
    $("conn").textContent = status === "live" ? `Table ${code} · live` : words;
    $("conn").dataset.status = status;
  },
});
live.start().then(async () => {
  // A display switched on mid-evening shows what just happened, from the audit log.
  const earlier = (await live.recentEvents(LOG_SIZE)).map((ev) => eventWords(ev, seatNames(live.state))).filter(Boolean);
  if (!log.length) {
    log.push(...earlier.reverse());
    log.splice(LOG_SIZE);
    $("d-log").replaceChildren(...log.map((w) => h("li", {}, w)));
  }
});

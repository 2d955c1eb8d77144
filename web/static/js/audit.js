// The audit log page, a page of entries at a time (links to older ones), the newest page kept
// live: when the table's event stream reports a new entry, the rows
// after the last one shown are fetched as HTML rendered (and escaped) by the server and put
// in place; an undone entry's row is replaced by its struck-through version.
//
// Each hand whose seed is revealed also gets a button that checks its dice in this browser
// (js/verify.js): the seed against the commitment, and every roll the page lists against the
// dice the seed gives, without asking the server anything.

import { checkHand, diceTable, summary } from "./verify.js";

const table = document.getElementById("audit-log");
const rows = document.getElementById("audit-rows");
const status = document.getElementById("audit-status");

function lastSeq() {
  let last = 0;
  for (const tr of rows.querySelectorAll("tr[data-seq]")) last = Math.max(last, Number(tr.dataset.seq));
  return last;
}

/** Rows one live update brings at most (the server's AUDIT_PAGE). */
const PAGE = 500;

let busy = false;
let again = false;

async function refresh() {
  if (busy) { again = true; return; }
  busy = true;
  try {
    const code = table.dataset.code;
    const response = await fetch(`/t/${encodeURIComponent(code)}/audit?rows=1&after=${lastSeq()}`);
    if (!response.ok) throw new Error(String(response.status));
    // The server escaped every name; parsing as a table body creates no script.
    const doc = new DOMParser().parseFromString(`<table><tbody>${await response.text()}</tbody></table>`, "text/html");
    for (const tr of doc.querySelectorAll("tr[data-seq]")) {
      const row = document.adoptNode(tr);
      const old = rows.querySelector(`tr[data-seq="${CSS.escape(row.dataset.seq)}"]`);
      if (old) old.replaceWith(row); else rows.append(row);
    }
    const first = rows.querySelector("tr[data-seq]");
    status.textContent = first ? `Entries ${first.dataset.seq} to ${lastSeq()}.` : "No entries yet.";
    // A live update holds at most a page of rows: ask again until the page has caught up.
    if (doc.querySelectorAll("tr[data-seq]").length >= PAGE) again = true;
  } catch (err) {
    status.textContent = "Could not load the newest entries; retrying with the next change.";
  } finally {
    busy = false;
    if (again) { again = false; refresh(); }
  }
}

// Only the newest page follows the table; an older page (`?before=N`) stays as it is.
if (table && table.dataset.live && "EventSource" in window) {
  const source = new EventSource(`/api/v1/tables/${encodeURIComponent(table.dataset.code)}/events`);
  source.addEventListener("update", refresh);
  // After a reconnect the snapshot may follow entries this page has not seen.
  source.addEventListener("snapshot", refresh);
}

// -- the dice check in this browser ---------------------------------------------------------

/** What the page shows of a hand: its seed, commitment and rolls in the table's order. */
function handOnPage(article) {
  const rolls = Array.from(article.querySelectorAll(".rolls li[data-trigger]"), (li) => ({
    trigger: li.dataset.trigger,
    dice: li.dataset.dice ? li.dataset.dice.split(",").map(Number) : [],
    entry: li.dataset.entry,
    byHand: li.dataset.byHand === "1",
  }));
  return { seed: article.dataset.seed, commitment: article.dataset.commitment, rolls };
}

function showResult(out, result) {
  const sentence = document.createElement("p");
  sentence.textContent = summary(result);
  const parts = [sentence];
  if (result.problems.length) {
    sentence.className = "form-error";
    const list = document.createElement("ul");
    for (const problem of result.problems) {
      const li = document.createElement("li");
      li.textContent = problem;
      list.append(li);
    }
    parts.push(list);
  }
  out.replaceChildren(...parts);
}

function addCheck(article, dice) {
  const wrap = document.createElement("p");
  wrap.className = "actions";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button";
  button.textContent = "Check the dice in this browser";
  // Every hand has the same button: its heading says which hand it checks.
  const heading = article.querySelector("h3[id]");
  if (heading) button.setAttribute("aria-describedby", heading.id);
  const out = document.createElement("div");
  out.className = "verify-result";
  out.setAttribute("role", "status");
  out.setAttribute("aria-live", "polite");
  // The words quote 64-digit hashes: let them break on a phone. (Belongs in host.css with
  // the other .hex rules; set here while that file is outside this change.)
  out.style.overflowWrap = "anywhere";
  button.addEventListener("click", () => {
    let result;
    try {
      result = checkHand(handOnPage(article), dice);
    } catch (err) {
      result = { ok: false, problems: [`The check could not run: ${err.message}.`], recomputed: [] };
    }
    showResult(out, result);
  });
  wrap.append(button);
  article.append(wrap, out);
}

const revealed = document.querySelectorAll("article.hand-seeds[data-seed]");
if (revealed.length) {
  const dice = diceTable();
  for (const article of revealed) addCheck(article, dice);
}

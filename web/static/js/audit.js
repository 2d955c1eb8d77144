// The audit log page, kept live: when the table's event stream reports a new entry, the rows
// after the last one shown are fetched as HTML rendered (and escaped) by the server and put
// in place; an undone entry's row is replaced by its struck-through version.

const table = document.getElementById("audit-log");
const rows = document.getElementById("audit-rows");
const status = document.getElementById("audit-status");

function lastSeq() {
  let last = 0;
  for (const tr of rows.querySelectorAll("tr[data-seq]")) last = Math.max(last, Number(tr.dataset.seq));
  return last;
}

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
    const count = rows.querySelectorAll("tr[data-seq]").length;
    status.textContent = `${count} entries, up to entry ${lastSeq()}.`;
  } catch (err) {
    status.textContent = "Could not load the newest entries; retrying with the next change.";
  } finally {
    busy = false;
    if (again) { again = false; refresh(); }
  }
}

if (table && "EventSource" in window) {
  const source = new EventSource(`/api/v1/tables/${encodeURIComponent(table.dataset.code)}/events`);
  source.addEventListener("update", refresh);
  // After a reconnect the snapshot may follow entries this page has not seen.
  source.addEventListener("snapshot", refresh);
}

// The page's shared bits of interface: the message bar and switching views.

const VIEWS = ["replay", "play", "results"];
let messageTimer = null;

// Show `words` in the message bar: an error stays until dismissed or replaced, a note fades.
export function showMessage(words, kind = "error") {
  const bar = document.getElementById("message");
  document.getElementById("message-text").textContent = words;
  bar.className = `message ${kind}`;
  bar.hidden = false;
  clearTimeout(messageTimer);
  if (kind !== "error") messageTimer = setTimeout(hideMessage, 4000);
}

export function hideMessage() {
  document.getElementById("message").hidden = true;
}

// A refusal as the server named it: the input, then the reason.
export function showError(error) {
  showMessage(error.input ? `${error.input}: ${error.reason}` : `${error.message}`, "error");
}

export function showView(name) {
  const view = VIEWS.includes(name) ? name : "replay";
  for (const other of VIEWS) {
    document.getElementById(`view-${other}`).hidden = other !== view;
    document.getElementById(`tab-${other}`).setAttribute("aria-selected", `${other === view}`);
  }
  if (location.hash !== `#${view}`) history.replaceState(null, "", `#${view}`);
  document.dispatchEvent(new CustomEvent("huerta:view", { detail: view }));
}

export function currentView() {
  return VIEWS.find((view) => !document.getElementById(`view-${view}`).hidden);
}

// An element with attributes and children (strings become text).
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? `${child}` : child);
  }
  return node;
}

// A scores table: one row per seat, the acting seat marked, the best score in bold, then the
// `extra` rows ([name, score]: a board's extra_scores, a scripted opponent's).
export function fillScores(table, names, scores, acting = -1, extra = []) {
  const best = Math.max(...scores);
  const rows = names.map((name, seat) => h("tr", { class: seat === acting ? "acting" : null },
    h("th", { scope: "row" }, name),
    h("td", { class: scores[seat] === best ? "best" : null }, scores[seat])));
  for (const [name, score] of extra || []) {
    rows.push(h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, score)));
  }
  table.replaceChildren(h("caption", {}, "Scores"), ...rows);
}

// Scroll `list` (not the page) so that `item` shows.
export function revealInList(list, item) {
  const box = list.getBoundingClientRect();
  const row = item.getBoundingClientRect();
  if (row.top < box.top) list.scrollTop -= box.top - row.top;
  else if (row.bottom > box.bottom) list.scrollTop += row.bottom - box.bottom;
}

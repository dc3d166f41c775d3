// Every game's board behind one call: draw a game's state JSON into a container as SVG, and in
// play make the targets of the legal actions stand out and answer clicks.
//
// Which games there are, and which module draws each, the server says (/api/meta's `boards`:
// game -> its file here, static/<board>.js, named after the game's board module on the server):
// loadBoards imports them once, so a new game's board is its own file and no line here.

import { el } from "./svg.js";

const BOARDS = new Map(); // game -> its board module (draw(board, palette, { viewer }))
const SCRIPT = /^[A-Za-z0-9_]+\.js$/; // a file beside this one, nothing else

// Import every game's board module (`scripts`: game -> file name, as /api/meta gives them).
export async function loadBoards(scripts) {
  await Promise.all(Object.entries(scripts).map(async ([game, script]) => {
    if (!SCRIPT.test(script)) throw new Error(`bad board script ${script} for game ${game}`);
    const module = await import(`./${script}`);
    if (typeof module.draw !== "function") {
      throw new Error(`the board script ${script} of game ${game} has no draw()`);
    }
    BOARDS.set(game, module);
  }));
}

// Draw `board` (a state_json) of `game` into `container`, replacing what was there.
// Options: viewer (the human's seat: its own holdings answer clicks), legal (board target ->
// legal action ids: those targets are highlighted), onTarget(key) (called on a click on any
// target, legal or not).
export function renderBoard(container, game, board, palette, { viewer = null, legal = null,
  onTarget = null } = {}) {
  const module = BOARDS.get(game);
  if (!module) throw new Error(`no board for game ${game}`);
  const svg = module.draw(board, palette, { viewer });
  if (onTarget) {
    const layers = new Map();
    for (const node of svg.querySelectorAll("[data-target]")) {
      const key = node.getAttribute("data-target");
      if (legal && legal[key]) halo(node, layerFor(node, layers));
      node.classList.add("target");
      if (legal && legal[key]) node.classList.add("legal");
    }
    svg.addEventListener("click", (event) => {
      const node = event.target.closest("[data-target]");
      if (node && svg.contains(node)) onTarget(node.getAttribute("data-target"));
    });
  }
  container.replaceChildren(svg);
  return svg;
}

// Where a target's halo goes: just above the last of its kind (the blades, the farmlands...),
// so that it outlines the target over its neighbours but under what is drawn on top of them
// (the windmill's hub, the channels, the water); a target without a kind holds its own.
function layerFor(node, layers) {
  const kind = node.getAttribute("class"); // asked before "target" and "legal" are added
  if (!kind) return node;
  const parent = node.parentNode;
  if (!layers.has(parent)) layers.set(parent, new Map());
  const byKind = layers.get(parent);
  if (!byKind.has(kind)) {
    const same = [...parent.children].filter((child) => child.classList.contains(kind));
    const layer = el(null, "g", { class: "halos" });
    same[same.length - 1].after(layer);
    byKind.set(kind, layer);
  }
  return byKind.get(kind);
}

// Outline a legal target: a copy of its main shape (its first child), unfilled, lit brighter
// while the pointer is over the target (halos take no clicks). A channel (a line) gets a wide
// halo under it instead, so that its water stays visible.
function halo(node, layer) {
  const shape = node.tagName === "g" ? node.firstElementChild : null;
  if (!shape || !["path", "rect", "circle", "line"].includes(shape.tagName)) return;
  const copy = shape.cloneNode(false);
  copy.setAttribute("class", "halo");
  copy.setAttribute("fill", "none");
  if (shape.tagName === "line") {
    copy.setAttribute("stroke-linecap", "round");
    node.insertBefore(copy, shape);
  } else {
    layer.appendChild(copy);
  }
  node.addEventListener("mouseenter", () => copy.classList.add("hover"));
  node.addEventListener("mouseleave", () => copy.classList.remove("hover"));
}

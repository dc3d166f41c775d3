// Finca's board as SVG, drawn from the state JSON of web/boards/finca.py with the layout and
// colours of envs/finca/picture.py: the windmill with its blades, fruit and farmers, the ten
// communities with their top tiles and finca tiles, a legend, and every player's holdings.

import {
  canvas, circle, group, house, legend, line, pieslice, polar, rect, target, text, textWidth,
  tip,
} from "./svg.js";

export const WIDTH = 1200;
export const HEIGHT = 820;
const INK = "#222222";

export function draw(board, palette, { viewer = null } = {}) {
  const svg = canvas(WIDTH, HEIGHT, palette.background, board.title);
  text(svg, 20, 14, board.title, { size: 22 });
  windmill(svg, board, palette, 290, 300, 205);
  drawLegend(svg, board, palette, 22, 546);
  communities(svg, board, palette, 585, 56);
  players(svg, board, palette, 610, viewer);
  return svg;
}

function windmill(svg, board, palette, cx, cy, radius) {
  const inner = 62;
  const names = board.fruit_names;
  for (let b = 0; b < 12; b++) {
    const g = target(group(svg, { class: "blade" }), `blade:${b}`);
    const start = -90 + 30 * b - 15; // blade 0 at 12 o'clock, clockwise
    pieslice(g, cx, cy, radius, start, start + 30, palette.fruit[board.blades[b]], "#3b3b3b");
    const angle = -90 + 30 * b;
    const [nx, ny] = polar(cx, cy, radius - 30, angle);
    text(g, nx, ny, names[board.blades[b]], { size: 13, fill: "#111111", anchor: "mm",
      stroke: "white" });
    const dots = [];
    board.farmers.forEach((row, p) => { for (let k = 0; k < row[b]; k++) dots.push(p); });
    dots.forEach((p, k) => {
      const ring = radius - 62 - 18 * Math.floor(k / 3);
      const [x, y] = polar(cx, cy, ring, angle + ((k % 3) - 1) * 7);
      circle(g, x, y, 8, palette.player[p], "white");
    });
    const who = dots.length ? `; farmers of ${dots.map((p) => `player_${p}`).join(", ")}` : "";
    tip(g, `blade ${b}: ${names[board.blades[b]]}${who}`);
  }
  circle(svg, cx, cy, inner, "#8b5a2b", "#3b3b3b");
  text(svg, cx, cy - 14, `carts ${board.centre_carts}`, { size: 16, fill: "white", anchor: "mm" });
  text(svg, cx, cy + 10, `of ${board.carts_in_play}`, { size: 14, fill: "white", anchor: "mm" });
  for (const lineBlade of board.line_blades) { // a dividing line lies just before blades 0 and 6
    const angle = -90 + 30 * lineBlade - 15;
    const [x0, y0] = polar(cx, cy, inner, angle);
    const [x1, y1] = polar(cx, cy, radius + 18, angle);
    line(svg, x0, y0, x1, y1, "#111111", 6);
    const a = (angle * Math.PI) / 180;
    text(svg, x1 + 28 * Math.cos(a), y1 + 12 * Math.sin(a), "cart line", { size: 13,
      fill: "#111111", anchor: "mm" });
  }
  for (let b = 0; b < 12; b++) {
    const [lx, ly] = polar(cx, cy, radius + 14, -90 + 30 * b);
    text(svg, lx, ly, `${b}`, { size: 15, fill: "#111111", anchor: "mm" });
  }
}

// Coloured discs with counts for each non-zero fruit (and '?' for wild); returns the end x.
// With `targets`, each disc answers clicks as `fruit:f` (the acting player's own fruit).
function fruitRow(parent, palette, x, y, counts, { wild = 0, size = 9, gap = 10,
  targets = false } = {}) {
  counts.forEach((n, f) => {
    if (!n) return;
    const g = group(parent);
    if (targets) target(g, `fruit:${f}`);
    circle(g, x + size, y, size, palette.fruit[f], "#333333");
    text(g, x + 2 * size + 3, y, `${n}`, { size: 14, fill: "#111111", anchor: "lm" });
    x += 2 * size + 3 + textWidth(`${n}`, 14) + gap;
  });
  if (wild) {
    wildDisc(parent, x + size, y, size);
    text(parent, x + 2 * size + 3, y, `${wild}`, { size: 14, fill: "#111111", anchor: "lm" });
    x += 2 * size + 3 + textWidth(`${wild}`, 14) + gap;
  }
  return x;
}

function wildDisc(parent, x, y, size = 9) {
  circle(parent, x, y, size, "white", "#333333");
  text(parent, x, y, "?", { size: 13, fill: "#111111", anchor: "mm" });
}

// A finca tile as printed: a disc per pictured fruit, or for the universal tile a disc of every
// fruit colour; returns the x after it.
function fincaDisc(parent, palette, x, y, tile, size = 9) {
  if (tile.universal) {
    for (let f = 0; f < palette.fruit.length; f++) {
      const start = -90 + 60 * f;
      pieslice(parent, x + size, y, size, start, start + 60, palette.fruit[f]);
    }
    circle(parent, x + size, y, size, null, "#333333");
    return x + 2 * size + 4;
  }
  for (const f of tile.fruits) {
    circle(parent, x + size, y, size, palette.fruit[f], "#333333");
    x += 2 * size + 3;
  }
  return x + 1;
}

function communities(svg, board, palette, left, top) {
  text(svg, left, top - 4, "Communities: top tile [value], tiles beneath, finca tile",
    { size: 16 });
  const boxW = 295;
  const boxH = 88;
  board.communities.forEach((c, i) => {
    const col = i % 2;
    const row = Math.floor(i / 2);
    const x = left + col * (boxW + 10);
    const y = top + 22 + row * (boxH + 6);
    const g = target(group(svg, { class: "community" }), `comm:${i}`);
    const outline = c.selected ? "#d62728" : "#6b6b6b";
    rect(g, x, y, x + boxW, y + boxH, c.top ? "#fffaf0" : "#e0d6c2", outline,
      c.selected ? 3 : 1);
    text(g, x + 8, y + 14, `C${i}`, { size: 16, anchor: "lm" });
    if (c.top) {
      const end = fruitRow(g, palette, x + 42, y + 16, c.top.fixed, { wild: c.top.wild,
        size: 8, gap: 7 });
      text(g, end + 2, y + 16, `[${c.top.value}]`, { size: 16, fill: "#8b0000", anchor: "lm" });
      if (c.top.wild) { // G-05: every ? of a tile is paid with one kind
        text(g, end + 34, y + 16, `${c.top.wild} of any one kind`, { size: 13, fill: "#444444",
          anchor: "lm" });
      }
      text(g, x + 8, y + 40, `${c.beneath} beneath`, { size: 13, fill: "#444444",
        anchor: "lm" });
    } else {
      text(g, x + 42, y + 16, "emptied", { size: 14, fill: "#444444", anchor: "lm" });
    }
    const fy = y + 66;
    if (c.finca) {
      text(g, x + 8, fy, "finca (5):", { size: 13, anchor: "lm" });
      const end = fincaDisc(g, palette, x + 80, fy, c.finca);
      if (c.finca.universal) {
        text(g, end + 4, fy, "most fruit tile points", { size: 13, anchor: "lm" });
      }
    } else {
      text(g, x + 8, fy, "finca tile resolved", { size: 13, fill: "#666666", anchor: "lm" });
    }
    if (c.wooden) house(g, x + boxW - 28, y + 58, 18, "#a0522d");
    let words = `community ${i}: ` + (c.top ? `top tile ${c.top.label}, ${c.beneath} beneath`
      : "emptied");
    if (c.beneath_tiles && c.beneath_tiles.length) {
      words += ` (face down, top first: ${c.beneath_tiles.join(", ")})`;
    }
    tip(g, words);
  });
  const y = top + 22 + 5 * (boxH + 6) + 2;
  const bonus = board.bonus_stack.join(" ") || "none";
  text(svg, left, y, `Wooden fincas left: ${board.wooden_reserve}    Bonus stack (top first): ${bonus}`,
    { size: 14 });
  text(svg, left, y + 30, "Supply", { size: 14, anchor: "lm" });
  fruitRow(svg, palette, left + 52, y + 30, board.supply, { size: 8 });
}

// What the colours and symbols mean: the fruits, the wild symbol, a tile's points, the finca
// tiles, the wooden finca, the farmers and the cart lines.
function drawLegend(svg, board, palette, left, y) {
  const g = group(svg, { class: "legend" });
  const fruit = (f) => (p, x, cy) => circle(p, x, cy, 8, palette.fruit[f], "#333333");
  const items = board.fruit_names.map((name, f) => [fruit(f), name]);
  items.push([(p, x, cy) => wildDisc(p, x, cy, 8), "wild: any one kind"]);
  legend(g, left, y, items, 575);
  legend(g, left, y + 22, [
    [null, "[3] a fruit tile's points;"],
    [(p, x, cy) => fincaDisc(p, palette, x - 8, cy, { fruits: [0], universal: false }, 8),
      "finca (5): 5 points for the most of its fruit on won tiles"],
  ], 575);
  legend(g, left, y + 44, [
    [(p, x, cy) => fincaDisc(p, palette, x - 8, cy, { fruits: [], universal: true }, 8),
      "the most tile points;"],
    [(p, x, cy) => house(p, x, cy + 1, 14, "#a0522d"), "wooden finca;"],
    [(p, x, cy) => circle(p, x, cy, 7, palette.player[0], "white"), "a farmer"],
  ], 575);
}

function players(svg, board, palette, top, viewer) {
  const n = board.num_players;
  const width = Math.floor((WIDTH - 40) / n);
  const tileNames = n < 4 ? board.action_tile_names : board.short_action_tile_names;
  board.players.forEach((p, i) => {
    const x = 20 + i * width;
    const g = group(svg, { class: "player" });
    const own = viewer === i; // only the human's own holdings answer clicks
    rect(g, x, top, x + width - 10, HEIGHT - 12, "#ffffff", palette.player[i], p.acting ? 5 : 2);
    circle(g, x + 18, top + 20, 9, palette.player[i], "white");
    const label = `player_${i}` + (own ? " (you)" : "") + (p.acting ? "  (to act)" : "");
    text(g, x + 34, top + 20, label, { size: 17, fill: "#111111", anchor: "lm" });
    text(g, x + width - 20, top + 20, `${p.score} pts`, { size: 20, fill: "#8b0000",
      anchor: "rm" });
    text(g, x + 10, top + 48, "fruit", { size: 13, fill: "#444444", anchor: "lm" });
    fruitRow(g, palette, x + 46, top + 48, p.fruits, { size: 8, targets: own });
    const carts = text(g, x + 10, top + 74, `carts ${p.carts}`, { size: 14, fill: "#111111",
      anchor: "lm" });
    if (own) target(carts, "deliver");
    const bonuses = p.bonuses.join(", ") || "-";
    text(g, x + 10 + textWidth(`carts ${p.carts}`, 14) + 16, top + 74, `bonus tiles ${bonuses}`,
      { size: 14, fill: "#111111", anchor: "lm" });
    text(g, x + 10, top + 100, "tiles " + (p.tiles.join(" ") || "-"), { size: 14,
      fill: "#111111", anchor: "lm" });
    text(g, x + 10, top + 126, "fincas", { size: 14, fill: "#111111", anchor: "lm" });
    let fx = x + 62;
    for (const tile of p.fincas) { // each tile framed, so a two-fruit tile reads as one
      const discs = tile.universal ? 1 : tile.fruits.length;
      rect(g, fx - 4, top + 115, fx + discs * 19 + 1, top + 137, "#f4e9d0", "#8b5a2b");
      fx = fincaDisc(g, palette, fx, top + 126, tile, 8) + 12;
    }
    if (!p.fincas.length) text(g, fx, top + 126, "-", { size: 14, fill: "#111111", anchor: "lm" });
    let tx = x + 10;
    text(g, tx, top + 152, "action tiles:", { size: 13, fill: "#111111", anchor: "lm" });
    tx += textWidth("action tiles:", 13) + 6;
    if (!p.unused_tiles.length) {
      text(g, tx, top + 152, "all used", { size: 13, fill: "#111111", anchor: "lm" });
    }
    p.unused_tiles.forEach((k, j) => {
      const words = tileNames[k] + (j < p.unused_tiles.length - 1 ? "," : "");
      const node = text(g, tx, top + 152, words, { size: 13, fill: "#111111", anchor: "lm" });
      if (own) target(node, `tile:${k}`);
      tx += textWidth(words, 13) + 5;
    });
    if (p.acting && board.delivery) {
      text(g, x + 10, top + 178, `delivering (${board.delivery.mode}), cap left ${board.delivery.cap_left}`,
        { size: 13, fill: "#d62728", anchor: "lm" });
    }
  });
}

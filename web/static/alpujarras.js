// Alpujarras's board as SVG, drawn from the state JSON of web/boards/alpujarras.py with the
// layout and colours of envs/alpujarras/picture.py: the track with the mules and the die, the
// five farmlands round the water with their fields, farmers and channels, the towns, the goal
// cards (solo: the zakat cards, the double-turn card and Zara) and every player's holdings.

import {
  canvas, circle, group, house, legend, line, pieslice, polar, rect, target, text, tip, wrap,
} from "./svg.js";

export const WIDTH = 1200;
export const HEIGHT = 820;
const INK = "#222222";
const TRACK_TOP = 46;
const CX = 282;
const CY = 512;
const RADIUS = 236;
const RIGHT = 572; // left edge of the right-hand column

export function draw(board, palette, { viewer = null } = {}) {
  const svg = canvas(WIDTH, HEIGHT, palette.background, board.title);
  const soft = palette.soft_ink;
  text(svg, 14, 10, board.title, { size: 22 });
  if (board.turn_text) {
    text(svg, WIDTH - 14, 16, board.turn_text, { size: 14, fill: "#8b0000", anchor: "ra" });
  }
  track(svg, board, palette);
  trackLegend(svg, board, palette, 208, soft);
  farmlands(svg, board, palette, soft);
  towns(svg, board, palette, 258, soft);
  if (board.solo) {
    zakats(svg, board, palette, 444);
    soloPlayers(svg, board, palette, 560, viewer, soft);
  } else {
    goals(svg, board, palette, 444);
    players(svg, board, palette, 560, viewer, soft);
  }
  return svg;
}

// --- small pieces ----------------------------------------------------------------------------

function fruitDisc(parent, palette, cx, cy, t, r = 8) {
  return circle(parent, cx, cy, r, palette.fruit[t], "#333333");
}

// Fruit discs with their counts; returns the x after the row. With `targets`, each answers
// clicks as `fruit:t` (the acting player's fruit).
function fruitRow(parent, palette, x, y, counts, { showZero = false, r = 8, gap = 24,
  targets = false } = {}) {
  counts.forEach((n, t) => {
    if (!n && !showZero) return;
    const g = group(parent);
    if (targets) target(g, `fruit:${t}`);
    fruitDisc(g, palette, x + r, y, t, r);
    text(g, x + 2 * r + 3, y, `${n}`, { size: 14, fill: n ? INK : "#999999", anchor: "lm" });
    x += 2 * r + gap;
  });
  return x;
}

// A delivery token: a square in the fruit's colour showing how many fruit it asks.
function token(parent, palette, x, y, tok, size = 22) {
  rect(parent, x, y - size / 2, x + size, y + size / 2, palette.fruit[tok.fruit], "#333333");
  text(parent, x + size / 2, y, `${tok.value}`, { size: 14, fill: palette.fruit_text[tok.fruit],
    anchor: "mm" });
}

// A farmer disc in a player's colour with a count beside it; returns the x after it.
function farmer(parent, x, y, colour, count, label = null, r = 7) {
  circle(parent, x + r, y, r, colour, "white");
  if (label !== null) text(parent, x + r, y, label, { size: 11, fill: "white", anchor: "mm" });
  text(parent, x + 2 * r + 2, y, `${count}`, { size: 13, anchor: "lm" });
  return x + 2 * r + 8 + 8 * `${count}`.length;
}

// The 2-player die (white, three pips) or Zara's die (her colour, Z).
function die(parent, palette, x, y, solo, size = 15) {
  rect(parent, x - size / 2, y - size / 2, x + size / 2, y + size / 2,
    solo ? palette.zara : "white", "#111111", 2);
  if (solo) {
    text(parent, x, y, "Z", { size: 11, fill: "white", anchor: "mm" });
  } else {
    for (const k of [-1, 0, 1]) circle(parent, x + 3.5 * k, y + 3.5 * k, 1.6, "#111111");
  }
}

function mule(parent, palette, x, y, p, acting) {
  circle(parent, x, y, 8, palette.player[p], acting ? "#ffcc00" : "white");
  if (acting) circle(parent, x, y, 10, null, "#ff9900");
  text(parent, x, y, `${p}`, { size: 11, fill: "white", anchor: "mm" });
}

function coin(parent, x, y) {
  circle(parent, x, y, 8, "#e8c547", "#8a6d00");
  text(parent, x, y, "1", { size: 11, anchor: "mm" });
}

// --- the track ---------------------------------------------------------------------------------

function track(svg, board, palette) {
  const spaces = board.track;
  const perRow = Math.ceil(spaces.length / 2);
  const startW = 58;
  const left = 14 + startW;
  const width = (WIDTH - 14 - left) / perRow;
  const height = 58;
  const rowsY = [TRACK_TOP + 14, TRACK_TOP + 14 + height + 20];
  const at = new Map();
  board.pieces.forEach((piece, i) => {
    if (!at.has(piece.pos)) at.set(piece.pos, []);
    at.get(piece.pos).push(i);
  });
  const bySpot = (list) => (list || []).slice().sort((a, b) => board.pieces[a].spot
    - board.pieces[b].spot);
  const y0 = rowsY[0];
  rect(svg, 14, y0, 14 + startW - 6, y0 + height, "#ece4d3", "#8a8a8a");
  text(svg, 14 + (startW - 6) / 2, y0 + 10, "start", { size: 12, fill: palette.soft_ink,
    anchor: "mm" });
  pieces(svg, board, palette, bySpot(at.get(-1)), 14 + (startW - 6) / 2, y0 + 38, startW - 10);
  spaces.forEach((space, s) => {
    const row = Math.floor(s / perRow);
    const x = left + (s % perRow) * width;
    const y = rowsY[row];
    const g = target(group(svg, { class: "space" }), `space:${s}`);
    const fill = space.farmland >= 0 ? palette.farmland[space.farmland]
      : palette.space[space.kind];
    rect(g, x + 1, y, x + width - 2, y + height, fill, "#8a8a8a");
    text(g, x + 4, y + 2, `${s}`, { size: 11, fill: palette.soft_ink });
    text(g, x + width / 2, y + 19, space.label, { size: space.label.length < 6 ? 13 : 11,
      anchor: "mm" });
    pieces(g, board, palette, bySpot(at.get(s)), x + width / 2, y + 41, width - 6);
    tip(g, `space ${s}: ${space.label}`);
    if (space.segment) {
      line(svg, x, y - 13, x, y + height + 2, "#333333", 2);
      text(svg, x + 3, y - 7, space.segment, { size: 11, fill: "#333333", anchor: "lm" });
    }
  });
}

// Pieces in spot order left to right, in two rows when they do not fit in one.
function pieces(parent, board, palette, list, cx, cy, room) {
  if (!list.length) return;
  const step = 19;
  const perRow = Math.max(1, Math.floor(room / step));
  const rows = [];
  for (let k = 0; k < list.length; k += perRow) rows.push(list.slice(k, k + perRow));
  rows.forEach((row, r) => {
    const y = cy + (r - (rows.length - 1) / 2) * 17;
    const x0 = cx - ((row.length - 1) * step) / 2;
    row.forEach((i, k) => {
      const x = x0 + k * step;
      if (i < board.num_players) mule(parent, palette, x, y, i, i === board.current_player);
      else die(parent, palette, x, y, board.solo);
    });
  });
}

function trackLegend(svg, board, palette, y, soft) {
  const items = [
    [null, "Track: P place a farmer (P2: two; on a coloured space: in that farmland),"],
    [null, "M move a farmer,"], [null, "I irrigate,"], [null, "N take a noria,"],
    [null, "F take a fruit,"], [null, "D take a dirhem;"], [null, "a digit repeats, + joins;"],
    [null, "end 5:1 sells 5 fruit per dirhem;"],
    [null, "GO, MA-MD markets, HA-HD harvests, END: segments;"],
  ];
  const hasDie = board.pieces.length > board.num_players;
  items.push([(p, x, cy) => mule(p, palette, x, cy, 0, false), hasDie ? "a mule by seat;"
    : "a mule by seat"]);
  if (hasDie) {
    items.push([(p, x, cy) => die(p, palette, x, cy, board.solo),
      board.solo ? "Zara's die" : "the die"]);
  }
  legend(group(svg, { class: "legend" }), 14, y, items, WIDTH - 14, { size: 12, lineHeight: 17,
    ink: soft, gap: 6 });
}

// --- the board: farmlands, fields, farmers, channels ---------------------------------------------

const middle = (f) => -90 + 72 * f; // farmland f's middle, green on top

function farmlands(svg, board, palette, soft) {
  text(svg, 14, 238, "Farmlands round the water: printed fields (* primary), farmers; "
    + "irrigable fields by the channels", { size: 13 });
  board.farmlands.forEach((land, f) => {
    const g = target(group(svg, { class: "farmland" }), `farmland:${f}`);
    const a = middle(f);
    pieslice(g, CX, CY, RADIUS, a - 36, a + 36, palette.farmland[f], "#5a5a5a");
    farmland(g, board, palette, land, f, soft);
  });
  board.channels.forEach((ch, c) => channel(svg, palette, ch, c));
  circle(svg, CX, CY, 34, palette.water, "#1b4f8a");
  text(svg, CX, CY, "water", { size: 12, fill: "white", anchor: "mm" });
  boardLegend(svg, board, palette, soft);
}

// A channel space on the border between its two farmlands: blue when irrigated, dry when not
// (outlined light blue while it is open to irrigation); a coin marks a dirhem space, and a
// field-leading space feeds the irrigable field drawn beside it.
function channel(svg, palette, ch, c) {
  const g = target(group(svg, { class: "channel" }), `channel:${c}`);
  const border = middle(ch.border) + 36;
  const r0 = 36 + 66 * ch.depth;
  const r1 = 36 + 66 * (ch.depth + 1) - 4;
  const [x0, y0] = polar(CX, CY, r0, border);
  const [x1, y1] = polar(CX, CY, r1, border);
  line(g, x0, y0, x1, y1, ch.open ? "#7fb6ea" : "#5a5a5a", 12);
  line(g, x0, y0, x1, y1, ch.filled ? palette.water : palette.dry, 8);
  const mid = (r0 + r1) / 2;
  if (ch.dirhem && !ch.filled) coin(g, ...polar(CX, CY, mid, border));
  let what = ch.dirhem ? "a dirhem" : "a field";
  if (ch.field) {
    const spur = ((26 / mid) * 180) / Math.PI;
    const [sx, sy] = polar(CX, CY, mid, border);
    const [fx, fy] = polar(CX, CY, mid, border + ch.field.side * spur);
    line(g, sx, sy, fx, fy, ch.filled ? palette.water : palette.dry, 5);
    const kind = ch.field.kind;
    rect(g, fx - 8, fy - 8, fx + 8, fy + 8, kind >= 0 ? palette.fruit[kind] : "#f7f2e6",
      kind >= 0 ? "#333333" : "#7d7d7d");
    what = `a field in farmland ${ch.field.farmland}`;
  }
  tip(g, `channel ${c}: ${ch.filled ? "irrigated" : ch.open ? "open" : "dry"}, leads to ${what}`);
}

// Name and primary fruit, the printed fields (the primary one starred: a harvest pays it),
// the farmers by colour and, solo, Zara's farmers and mule; the town on the rim.
function farmland(g, board, palette, land, f, soft) {
  const a = middle(f);
  const [x, y] = polar(CX, CY, 146, a);
  const names = board.fruit_names;
  text(g, x, y - 34, `${land.name} (${names[land.primary]})`, { size: 14,
    fill: f === 2 ? "#6f5e00" : palette.farmland_dark[f], anchor: "mm", stroke: "white" });
  const size = 16;
  const x0 = x - (land.fields.length * (size + 4) - 4) / 2;
  land.fields.forEach((kind, k) => {
    const fx = x0 + k * (size + 4);
    rect(g, fx, y - 20, fx + size, y - 20 + size, palette.fruit[kind], "#333333", k === 0 ? 2 : 1);
    if (k === 0) {
      text(g, fx + size / 2, y - 12, "*", { size: 13, fill: palette.fruit_text[kind],
        anchor: "mm" });
    }
  });
  const entries = [];
  land.farmers.forEach((n, p) => { if (n) entries.push([palette.player[p], n, `${p}`]); });
  if (land.zara_farmers) entries.push([palette.zara, land.zara_farmers, "Z"]);
  const rowY = y + 10;
  let fx = x - entries.reduce((w, [, n]) => w + 24 + 8 * `${n}`.length, 0) / 2;
  for (const [colour, n, label] of entries) fx = farmer(g, fx, rowY, colour, n, label);
  if (!entries.length) {
    text(g, x, rowY, "no farmers", { size: 12, fill: soft, anchor: "mm" });
  }
  if (land.zara_mule) {
    text(g, x, y + 32, "Zara's mule", { size: 12, fill: "white", anchor: "mm",
      stroke: palette.zara });
  }
  house(g, ...polar(CX, CY, RADIUS - 18, a), 16, palette.farmland[f]);
  tip(g, `${land.name} farmland`);
}

// Fruit colours, the field and channel symbols and the crop bag's composition (its order is
// hidden).
function boardLegend(svg, board, palette, soft) {
  const g = group(svg, { class: "legend" });
  let x = 14;
  let y = HEIGHT - 56;
  board.fruit_names.forEach((name, t) => {
    fruitDisc(g, palette, x + 8, y, t);
    text(g, x + 20, y, name, { size: 13, anchor: "lm" });
    x += 30 + 8 * name.length;
  });
  y = HEIGHT - 34;
  text(g, 14, y, "crop bag", { size: 13, anchor: "lm" });
  x = fruitRow(g, palette, 80, y, board.bag, { showZero: true, r: 7, gap: 20 });
  text(g, x + 10, y, "channel: blue irrigated, pale edge open", { size: 12, fill: soft,
    anchor: "lm" });
  const field = (p, cx, cy) => rect(p, cx - 7, cy - 7, cx + 7, cy + 7, "#f7f2e6", "#7d7d7d");
  legend(g, 14, HEIGHT - 12, [
    [coin, "a dirhem for irrigating there;"], [field, "an irrigable field;"],
    [(p, cx, cy) => farmer(p, cx - 7, cy, palette.player[0], 2, "0"), "  = 2 farmers of seat 0"],
  ], RIGHT - 8, { size: 12, ink: soft });
}

// --- right-hand column: towns, cards, players ----------------------------------------------------

function towns(svg, board, palette, top, soft) {
  const heading = "Towns: delivery tokens (number: fruit asked)"
    + (board.solo ? "" : ", award token (dirhems)") + ", farmers in town";
  text(svg, RIGHT, top - 20, heading, { size: 14 });
  const rowH = 33;
  board.towns.forEach((town, w) => {
    const y = top + w * rowH + rowH / 2;
    rect(svg, RIGHT, y - rowH / 2 + 2, WIDTH - 14, y + rowH / 2 - 2, "#fffaf0", "#b5ab96");
    house(svg, RIGHT + 16, y + 2, 15, palette.farmland[w]);
    text(svg, RIGHT + 32, y, board.farmlands[w].name, { size: 14, anchor: "lm" });
    let x = RIGHT + 100;
    town.tokens.forEach((tok, k) => {
      const g = target(group(svg, { class: "token" }), `token:${w}:${k}`);
      token(g, palette, x, y, tok);
      tip(g, `${board.farmlands[w].name} town: deliver ${tok.value} ${board.fruit_names[tok.fruit]}`);
      x += 27;
    });
    if (!town.tokens.length) {
      text(svg, x, y, "no tokens left", { size: 12, fill: soft, anchor: "lm" });
    }
    const ax = RIGHT + 250;
    if (town.award && town.award.gone) {
      text(svg, ax, y, "award gone", { size: 12, fill: soft, anchor: "lm" });
    } else if (town.award) {
      circle(svg, ax + 10, y, 10, town.award.first ? "#2e9e3e" : "#c62828", "#333333");
      text(svg, ax + 10, y, `${town.award.value}`, { size: 12, fill: "white", anchor: "mm" });
      text(svg, ax + 25, y, town.award.first ? "to the first delivery" : "to the second delivery",
        { size: 12, fill: soft, anchor: "lm" });
    }
    x = RIGHT + 420;
    town.farmers.forEach((n, p) => {
      if (n) x = farmer(svg, x, y, palette.player[p], n, `${p}`);
    });
  });
}

function cardBox(svg, i, top) {
  const cardW = (WIDTH - 14 - RIGHT - 4 * 6) / 5;
  const x = RIGHT + i * (cardW + 6);
  return [target(group(svg, { class: "card" }), `card:${i}`), x, cardW];
}

function goals(svg, board, palette, top) {
  text(svg, RIGHT, top - 20, "Goal cards (dirhems; players who completed them)", { size: 14 });
  board.cards.forEach((card, i) => {
    const [g, x, cardW] = cardBox(svg, i, top);
    rect(g, x, top, x + cardW, top + 100, "#fffaf0", "#7d6f55", 2);
    wrap(card.text, 16).slice(0, 3).forEach((words, k) => {
      text(g, x + 6, top + 8 + 16 * k, words, { size: 12 });
    });
    text(g, x + cardW - 6, top + 62, `+${card.reward}`, { size: 18, fill: "#8b0000",
      anchor: "rm" });
    card.done.forEach((p, k) => {
      circle(g, x + 14 + 20 * k, top + 84, 8, palette.player[p], "white");
      text(g, x + 14 + 20 * k, top + 84, `${p}`, { size: 11, fill: "white", anchor: "mm" });
    });
    tip(g, `goal card ${i}: ${card.text} (+${card.reward} dirhems)`);
  });
}

function zakats(svg, board, palette, top) {
  text(svg, RIGHT, top - 20, "Zakat cards (pay one at each harvest and at the end)",
    { size: 14 });
  board.cards.forEach((card, i) => {
    const [g, x, cardW] = cardBox(svg, i, top);
    rect(g, x, top, x + cardW, top + 100, card.paid ? "#e6e0d4" : "#fffaf0", "#7d6f55", 2);
    text(g, x + 6, top + 6, `card ${i}` + (card.star ? " (star)" : ""), { size: 12 });
    card.fruits.forEach((t, k) => fruitDisc(g, palette, x + 16 + 20 * k, top + 38, t));
    card.extras.forEach((words, k) => text(g, x + 8, top + 56 + 15 * k, words, { size: 12 }));
    if (card.paid) {
      text(g, x + cardW - 8, top + 14, "PAID", { size: 16, fill: "#2e7d32", anchor: "rm" });
    }
    tip(g, `zakat card ${i}: ${card.label}${card.paid ? " (paid)" : ""}`);
  });
}

function holdings(svg, board, palette, p, [x0, y0, x1, y1], own, soft) {
  const player = board.players[p];
  const g = group(svg, { class: "player" });
  rect(g, x0, y0, x1, y1, "#ffffff", palette.player[p], player.acting ? 5 : 2);
  circle(g, x0 + 16, y0 + 17, 9, palette.player[p], "white");
  text(g, x0 + 16, y0 + 17, `${p}`, { size: 11, fill: "white", anchor: "mm" });
  text(g, x0 + 32, y0 + 17, player.name + (own && !board.solo ? " (you)" : "")
    + (player.acting ? "  (to act)" : ""), { size: 16, anchor: "lm" });
  text(g, x1 - 10, y0 + 17, `score ${player.score}`, { size: 18, fill: "#8b0000",
    anchor: "rm" });
  text(g, x0 + 10, y0 + 40, "fruit", { size: 12, fill: soft, anchor: "lm" });
  fruitRow(g, palette, x0 + 44, y0 + 40, player.fruit, { showZero: true, gap: 20,
    targets: own });
  text(g, x0 + 10, y0 + 61, `norias ${player.norias}   dirhems ${player.dirhems}`,
    { size: 13, anchor: "lm" });
  text(g, x0 + 10, y0 + 80, `farmers: ${player.supply} in supply, ${player.in_towns} in towns, `
    + `${player.on_cards} on cards`, { size: 13, anchor: "lm" });
  text(g, x0 + 10, y0 + 101, `tokens (${player.markets_used}/5)`, { size: 12, fill: soft,
    anchor: "lm" });
  player.tokens.forEach((tok, k) => token(g, palette, x0 + 96 + 22 * k, y0 + 101, tok, 18));
}

function players(svg, board, palette, top, viewer, soft) {
  const n = board.num_players;
  const width = (WIDTH - 14 - RIGHT - 8) / 2;
  const rows = Math.ceil(n / 2);
  const height = Math.min((HEIGHT - 10 - top - 8 * (rows - 1)) / rows, 118);
  for (let p = 0; p < n; p++) {
    const x = RIGHT + (p % 2) * (width + 8);
    const y = top + Math.floor(p / 2) * (height + 8);
    holdings(svg, board, palette, p, [x, y, x + width, y + height], viewer === p, soft);
  }
}

function soloPlayers(svg, board, palette, top, viewer, soft) {
  const width = (WIDTH - 14 - RIGHT - 8) / 2;
  holdings(svg, board, palette, 0, [RIGHT, top, RIGHT + width, top + 118], viewer === 0, soft);
  const zara = board.zara;
  const x0 = RIGHT + width + 8;
  rect(svg, x0, top, WIDTH - 14, top + 118, "#ffffff", palette.zara, 2);
  circle(svg, x0 + 16, top + 17, 9, palette.zara, "white");
  text(svg, x0 + 16, top + 17, "Z", { size: 11, fill: "white", anchor: "mm" });
  text(svg, x0 + 32, top + 17, "Zara", { size: 16, anchor: "lm" });
  text(svg, WIDTH - 24, top + 17, `score ${zara.score}`, { size: 18, fill: "#8b0000",
    anchor: "rm" });
  text(svg, x0 + 10, top + 40, `mule in ${zara.farmland}   dirhems ${zara.dirhems}`,
    { size: 13, anchor: "lm" });
  text(svg, x0 + 10, top + 61, `farmers: supply ${zara.supply}, farmlands ${zara.farmers}`,
    { size: 13, anchor: "lm" });
  text(svg, x0 + 10, top + 101, "tokens", { size: 12, fill: soft, anchor: "lm" });
  zara.tokens.forEach((tok, k) => token(svg, palette, x0 + 56 + 22 * k, top + 101, tok, 18));
  let y = top + 134;
  text(svg, RIGHT, y, "Double-turn card (stops behind Zara's die left):", { size: 14,
    anchor: "lm" });
  for (let k = 0; k <= board.double_turns_max; k++) {
    const bx = RIGHT + 330 + k * 34;
    rect(svg, bx, y - 13, bx + 28, y + 13, "#fffaf0", "#7d6f55");
    text(svg, bx + 14, y, `${k}`, { size: 13, fill: soft, anchor: "mm" });
    if (k === board.double_turns) {
      circle(svg, bx + 14, y, 10, palette.player[0], "white");
      text(svg, bx + 14, y, `${k}`, { size: 12, fill: "white", anchor: "mm" });
    }
  }
  y += 34;
  text(svg, RIGHT, y, "Kinds delivered:", { size: 14, anchor: "lm" });
  let x = RIGHT + 130;
  for (const t of board.kinds_delivered) {
    fruitDisc(svg, palette, x, y, t);
    x += 22;
  }
  text(svg, x + 8, y, `${board.kinds_delivered.length}/5 kinds, ${board.zakats_paid}/5 zakats paid`,
    { size: 14, anchor: "lm" });
}

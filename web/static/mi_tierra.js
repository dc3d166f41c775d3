// Mi Tierra's board as SVG, drawn from the state JSON of web/boards/mi_tierra.py with the layout
// and colours of envs/mi_tierra/picture.py: the board zones with their workers, the development
// display, the events and market pile, the Established and Closing markets, the Black Market
// chart, what is being decided now, and every player's money, goods, cards and farm.

import {
  canvas, circle, group, line, rect, target, text, textColour, tip, wrap,
} from "./svg.js";

export const WIDTH = 1400;
export const HEIGHT = 900;
const INK = "#222222";

export function draw(board, palette, { viewer = null } = {}) {
  const svg = canvas(WIDTH, HEIGHT, palette.background, board.title);
  const soft = palette.soft_ink;
  text(svg, 14, 10, board.title, { size: 21 });
  const order = board.order.map((name, k) => `${k + 1}. ${name}`).join("  ");
  text(svg, 14, 44, `Turn order: ${order}`, { size: 15 });
  zones(svg, board, palette, 14, 78, soft);
  developments(svg, board, palette, 548, 78, soft);
  events(svg, board, 548, 370, soft);
  markets(svg, board, 858, 78, soft);
  context(svg, board, palette, 858, 340, soft);
  players(svg, board, palette, 548, viewer, soft);
  return svg;
}

// --- small pieces ----------------------------------------------------------------------------

function worker(parent, palette, cx, cy, player, r = 11, label = "") {
  circle(parent, cx, cy, r, palette.player[player], "#111111");
  if (label) text(parent, cx, cy, label, { size: 13, fill: "white", anchor: "mm" });
}

// One worker space: an empty ring, a worker (a pair shows '2'), or a blocked cross.
function slot(parent, palette, cx, cy, space, number = "") {
  if (space.blocked) {
    circle(parent, cx, cy, 11, "#cfc8b8", "#9a9384");
    line(parent, cx - 6, cy - 6, cx + 6, cy + 6, "#7a7466", 2);
    line(parent, cx - 6, cy + 6, cx + 6, cy - 6, "#7a7466", 2);
  } else if (space.owner >= 0) {
    worker(parent, palette, cx, cy, space.owner, 11, space.pair ? "2" : "");
  } else {
    circle(parent, cx, cy, 11, "#fbf8f1", "#9a9384");
    if (number) text(parent, cx, cy, number, { size: 11, fill: "#9a9384", anchor: "mm" });
  }
}

// A good as a small labelled chip with its count; returns the x after it.
function chip(parent, board, palette, x, y, good, count, size = 15) {
  const fill = palette.good[good];
  rect(parent, x, y - 10, x + 24, y + 10, fill, "#6b6b6b");
  text(parent, x + 12, y, board.goods.codes[good], { size: 12, fill: textColour(fill),
    anchor: "mm" });
  text(parent, x + 27, y, `${count}`, { size, anchor: "lm" });
  return x + 30 + 9 * `${count}`.length;
}

function box(parent, x0, y0, x1, y1, title, active = false, closed = false) {
  rect(parent, x0, y0, x1, y1, closed ? "#e4ddcd" : "#fffaf0", active ? "#b8860b" : "#8c8472",
    active ? 4 : 1);
  text(parent, x0 + 7, y0 + 5, title, { size: 14 });
}

// --- the board ---------------------------------------------------------------------------------

function zones(svg, board, palette, left, top, soft) {
  text(svg, left, top - 4, "Board: workers by colour (2 = a pair), X = blocked", { size: 15 });
  const boxW = 172;
  const boxH = 64;
  for (const zone of board.zones) {
    const x = left + zone.col * (boxW + 6);
    const y = top + 20 + zone.row * (boxH + 6);
    const g = target(group(svg, { class: "zone" }), `zone:${zone.zone}`);
    box(g, x, y, x + boxW, y + boxH, zone.title, zone.active, zone.closed);
    if (zone.closed) {
      text(g, x + boxW - 8, y + 42, "closed", { size: 13, fill: "#8b0000", anchor: "rm" });
    }
    zone.spaces.forEach((space, k) => slot(g, palette, x + 22 + 30 * k, y + 42, space));
    tip(g, zone.title);
  }
  // the Established market's numbered spaces and the Black Market, below the grid
  let y = top + 20 + 4 * (boxH + 6);
  const est = target(group(svg, { class: "zone" }), `zone:${board.est_market.zone}`);
  box(est, left, y, left + 2 * boxW + 6, y + boxH, "14 Established market (sell; space 1 first)",
    board.est_market.active);
  board.est_market.spaces.forEach((space, k) => {
    slot(est, palette, left + 22 + 30 * k, y + 42, { ...space, pair: false }, `${k + 1}`);
  });
  const bx = left + 2 * (boxW + 6);
  const bm = target(group(svg, { class: "zone" }), "zone:black_market");
  box(bm, bx, y, bx + boxW, y + boxH, "15 Black Market", board.black_market.active);
  board.black_market.workers.slice(0, 6).forEach((p, k) => {
    worker(bm, palette, bx + 22 + 26 * k, y + 42, p);
  });
  if (!board.black_market.workers.length) {
    text(bm, bx + 10, y + 42, "no worker", { size: 13, fill: soft, anchor: "lm" });
  }
  // the chart of the Black Market, which names every good's chip
  y += boxH + 6;
  text(svg, left, y, "Black Market: the bank pays / sells for, per unit (goods by code)",
    { size: 13 });
  const colW = (2 * boxW + 6 + boxW + 6) / 4;
  for (const { good, price } of board.black_market.chart) {
    const x = left + (good % 4) * colW;
    const cy = y + 30 + 21 * Math.floor(good / 4);
    const g = target(group(svg, { class: "good" }), `good:${good}`);
    const fill = palette.good[good];
    rect(g, x, cy - 9, x + 22, cy + 9, fill, "#6b6b6b");
    text(g, x + 11, cy, board.goods.codes[good], { size: 11, fill: textColour(fill),
      anchor: "mm" });
    text(g, x + 26, cy, `${board.goods.names[good]} ${price}`, { size: 12, anchor: "lm" });
  }
}

function developments(svg, board, palette, left, top, soft) {
  const dev = board.developments;
  text(svg, left, top - 4, "10 Developments: $1 per card a spot touches", { size: 15 });
  rect(svg, left, top + 20, left + 296, top + 280, "#fffaf0", dev.active ? "#b8860b" : "#8c8472",
    dev.active ? 4 : 1);
  const cardW = 116;
  const cardH = 74;
  const cx = left + 148;
  const cy = top + 150; // the centre of the 2x2 display
  dev.display.forEach((card, s) => {
    const x = cx - cardW - 3 + (s % 2) * (cardW + 6);
    const y = cy - cardH - 3 + Math.floor(s / 2) * (cardH + 6);
    const g = target(group(svg, { class: "display" }), `display:${s}`);
    if (!card) {
      rect(g, x, y, x + cardW, y + cardH, "#e4ddcd", "#b0a890");
      text(g, x + cardW / 2, y + cardH / 2, "empty", { size: 13, fill: soft, anchor: "mm" });
      return;
    }
    rect(g, x, y, x + cardW, y + cardH, "#f7e9c8", card.reachable ? "#d62728" : "#8c6d1f",
      card.reachable ? 4 : 2);
    text(g, x + 6, y + 5, card.numeral, { size: 16, fill: "#8b0000" });
    wrap(card.name, 14).forEach((words, k) => text(g, x + 6, y + 28 + 18 * k, words,
      { size: 14 }));
    tip(g, `${card.numeral} ${card.name}`);
  });
  const spots = {
    N: [cx, cy - cardH - 22], S: [cx, cy + cardH + 22], W: [cx - cardW - 20, cy],
    E: [cx + cardW + 20, cy], C: [cx, cy],
  };
  dev.spots.forEach((spot, k) => {
    const [x, y] = spots[spot.name];
    const g = target(group(svg, { class: "devspot" }), `devspot:${k}`);
    slot(g, palette, x, y, { ...spot, pair: false });
    if (spot.owner < 0 && !spot.blocked) {
      text(g, x, y, spot.name, { size: 12, fill: "#7a7466", anchor: "mm" });
    }
    tip(g, `development spot ${spot.name}`);
  });
  text(svg, left + 6, top + 262, `development deck: ${dev.deck} cards`, { size: 13, fill: soft });
}

function events(svg, board, left, top, soft) {
  const ev = board.events;
  rect(svg, left, top, left + 296, top + 162, "#fffaf0", "#8c8472");
  text(svg, left + 7, top + 5, "Events", { size: 15 });
  text(svg, left + 10, top + 32, `in force: ${ev.in_force || "none"}`, { size: 15,
    fill: ev.in_force ? "#8b0000" : soft });
  if (ev.in_force) text(svg, left + 10, top + 54, ev.effect, { size: 13 });
  text(svg, left + 10, top + 80, "permanent events seen:", { size: 14 });
  for (let k = 0; k < ev.permanents_to_end; k++) {
    circle(svg, left + 176 + 24 * k, top + 88, 8, k < ev.permanents_seen ? "#b8860b" : "#fbf8f1",
      "#6b5a1e");
  }
  if (ev.end) text(svg, left + 10, top + 104, `the third came: ${ev.end}`, { size: 13,
    fill: "#8b0000" });
  const pile = ev.pile;
  text(svg, left + 10, top + 124, `market pile: ${pile.size} cards (${pile.a} A, ${pile.b} B)`,
    { size: 14 });
  text(svg, left + 10, top + 142, `top card backs: ${pile.backs || "-"}`, { size: 13,
    fill: soft });
}

// --- markets ---------------------------------------------------------------------------------

function marketCard(svg, x, y, card, soft) {
  const w = 128;
  const h = 74;
  const g = target(group(svg, { class: "market" }), `market:${card.label}`);
  if (card.empty) {
    rect(g, x, y, x + w, y + h, "#e4ddcd", "#b0a890");
    text(g, x + w / 2, y + h / 2, `${card.label}: empty`, { size: 12, fill: soft,
      anchor: "mm" });
    return;
  }
  const fill = { simple: "#e8f1e0", pack: "#e3ecf6", generic: "#f3e8f3" }[card.kind];
  rect(g, x, y, x + w, y + h, fill, card.selling ? "#d62728" : "#5f7f55", card.selling ? 4 : 2);
  text(g, x + 6, y + 4, `${card.label}  ${card.code}`, { size: 12, fill: soft });
  const first = wrap(card.lines[0], 19).slice(0, 2);
  first.forEach((words, k) => text(g, x + 6, y + 22 + 16 * k, words, { size: 13 }));
  wrap(card.lines[1], 19).slice(0, 2).forEach((words, k) => {
    text(g, x + 6, y + 22 + 16 * (first.length + k), words, { size: 12, fill: "#8b0000" });
  });
  tip(g, `market ${card.label}: ${card.code} ${card.lines.join(", ")}`);
}

function markets(svg, board, left, top, soft) {
  const m = board.markets;
  text(svg, left, top - 4, "Established markets E0-E3 (card code; sold cards are replaced)",
    { size: 15 });
  m.est.forEach((card, k) => {
    marketCard(svg, left + (k % 4) * 134, top + 20 + Math.floor(k / 4) * 80, card, soft);
  });
  const y = top + 20 + 80 * Math.ceil(m.est.length / 4) + 14;
  text(svg, left, y, "Closing markets C0-C3 (still sold to this round, then discarded)",
    { size: 15 });
  m.closing.forEach((card, k) => marketCard(svg, left + k * 134, y + 24, card, soft));
  if (m.inflation) {
    text(svg, left, y + 110, "Inflation: the prices shown include +$1 on milk, flour and wine",
      { size: 13, fill: "#8b0000" });
  }
}

// What is being decided now, in a few public facts, and a legend of the farm tiles.
function context(svg, board, palette, left, top, soft) {
  rect(svg, left, top, WIDTH - 14, top + 182, "#fffaf0", "#8c8472");
  text(svg, left + 7, top + 5, "Now", { size: 15 });
  board.context.forEach((words, k) => text(svg, left + 12, top + 32 + 21 * k, words,
    { size: 14 }));
  const y = top + 150;
  let x = left + 12;
  text(svg, x, y - 34, "farm cells are numbered 0-11 as the CELL_k actions name them",
    { size: 12, fill: soft });
  text(svg, x, y, "farm:", { size: 13, anchor: "lm" });
  x += 40;
  for (let tile = 1; tile < board.tile_names.length; tile++) {
    const fill = palette.tile[tile];
    rect(svg, x, y - 10, x + 58, y + 10, fill, "#6b6b6b");
    text(svg, x + 29, y, board.tile_names[tile], { size: 12, fill: textColour(fill),
      anchor: "mm" });
    x += 64;
  }
}

// --- players -----------------------------------------------------------------------------------

function players(svg, board, palette, top, viewer, soft) {
  const n = board.num_players;
  const width = Math.floor((WIDTH - 28) / n);
  board.players.forEach((p, i) => {
    const x = 14 + i * width;
    const own = viewer === i; // only the human's own farm and goods answer clicks
    const g = group(svg, { class: "player" });
    rect(g, x, top, x + width - 10, HEIGHT - 10, "#ffffff", palette.player[i], p.acting ? 6 : 2);
    worker(g, palette, x + 20, top + 20, i, 10);
    const label = `player_${i}` + (own ? " (you)" : "") + (p.acting ? "  (to act)" : "")
      + (p.winner ? "  winner" : "");
    text(g, x + 36, top + 20, label, { size: 18, anchor: "lm" });
    text(g, x + width - 22, top + 20, `score ${p.score}`, { size: 20, fill: "#8b0000",
      anchor: "rm" });
    text(g, x + 12, top + 44, `$${p.money}   turn ${p.turn}   workers ${p.owned} (hut ${p.hut})`
      + (p.passed ? "  passed" : ""), { size: 15 });
    text(g, x + 12, top + 66, `cake ${p.cake} ($${board.cake_value})   cloth ${p.cloth} `
      + `($${board.cloth_value})   goods ${p.goods_total}`, { size: 14 });
    goods(g, board, palette, p, x + 12, top + 96, width - 30, own, soft);
    const chars = Math.max(24, Math.floor((width - 30) / 8));
    let lines = wrap("cards: " + (p.cards.join(", ") || "-"), chars);
    if (lines.length > 2) lines = wrap("cards: " + p.card_numerals.join(" "), chars);
    lines.slice(0, 2).forEach((words, k) => text(g, x + 12, top + 146 + 18 * k, words,
      { size: 13 }));
    farm(g, board, palette, p, i, x + 12, top + 186, Math.min(width - 34, 380), own, soft);
    knowledge(g, p, x + 12, top + 322, width - 30, own, soft);
  });
}

function goods(parent, board, palette, p, x0, y, width, own, soft) {
  if (!p.goods.length) {
    text(parent, x0, y, "no goods, no animals", { size: 13, fill: soft, anchor: "lm" });
    return;
  }
  let x = x0;
  for (const [good, count] of p.goods) {
    if (x > x0 + width - 50) {
      x = x0;
      y += 24;
    }
    const g = group(parent);
    if (own) target(g, `good:${good}`);
    x = chip(g, board, palette, x, y, good, count, 14);
  }
}

// The 3x4 farm: fields and barnyards (with their animals), farm workers, the henhouse.
function farm(parent, board, palette, p, seat, x0, y0, width, own, soft) {
  const cellW = Math.min(72, (width - 78) / 4);
  const cellH = cellW > 60 ? 40 : 38;
  p.farm.forEach((cell, c) => {
    const x = x0 + (c % 4) * cellW;
    const y = y0 + Math.floor(c / 4) * cellH;
    const g = group(parent, { class: "cell" });
    if (own) target(g, `cell:${c}`);
    const fill = palette.tile[cell.tile];
    rect(g, x, y, x + cellW - 3, y + cellH - 3, fill, "#6b6b6b");
    const mid = x + (cellW - 3) / 2;
    if (cell.text) text(g, mid, y + 11, cell.text, { size: 12, fill: textColour(fill),
      anchor: "mm" });
    if (cell.sub) text(g, mid, y + 25, cell.sub, { size: 11, fill: "white", anchor: "mm" });
    if (cell.worker) worker(g, palette, mid, y + 25, seat, 7);
    text(g, x + 3, y + cellH - 5, `${c}`, { size: 11, fill: cell.tile ? textColour(fill) : soft,
      anchor: "ld" });
    tip(g, `farm cell ${c}: ${cell.text || "empty"}${cell.sub ? ` ${cell.sub}` : ""}`);
  });
  const hx = x0 + 4 * cellW + 6;
  rect(parent, hx, y0, hx + 66, y0 + 3 * cellH - 3, "#fbeed3", "#6b6b6b");
  text(parent, hx + 33, y0 + 14, "henhouse", { size: 12, anchor: "mm" });
  text(parent, hx + 33, y0 + 48, `${p.hens}`, { size: 22, fill: "#b5651d", anchor: "mm" });
  text(parent, hx + 33, y0 + 76, `hens of ${board.henhouse_capacity}`, { size: 11, fill: soft,
    anchor: "mm" });
}

// A player's Clock Tower knowledge: sent for the human's own seat only (every seat in a replay);
// the others show how many cards they peeked.
function knowledge(parent, p, x, y, width, own, soft) {
  const k = p.knowledge;
  let words;
  if (k && (k.in_order.length || k.as_set.length)) {
    const parts = [];
    if (k.in_order.length) parts.push(`top first: ${k.in_order.join(", ")}`);
    if (k.as_set.length) parts.push(`within the top ${k.depth}: ${k.as_set.join(", ")}`);
    words = `${own ? "your" : "its"} Clock Tower peek, ${parts.join("; ")}`;
  } else if (p.peeked) {
    words = `peeked at ${p.peeked} market card${p.peeked > 1 ? "s" : ""} (private)`;
  } else {
    return;
  }
  const chars = Math.max(24, Math.floor(width / 6.6));
  const node = group(parent);
  wrap(words, chars).slice(0, 2).forEach((row, j) => {
    text(node, x, y + 15 * j, row, { size: 12, fill: soft });
  });
  tip(node, words);
}

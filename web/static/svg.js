// Small SVG drawing verbs shared by the three boards, named after the Pillow canvas the pictures
// use (envs/core/pictures.py), so that a board's JS reads like its picture.py.

const NS = "http://www.w3.org/2000/svg";
// Arial's metrics (Liberation Sans is Arial's free twin) come closest to the pictures' font.
export const FONT = '"Liberation Sans", Arial, Helvetica, "DejaVu Sans", sans-serif';

// Pillow text anchors: horizontal l/m/r, vertical a (top), m (middle), s (baseline), d (bottom).
const H_ANCHOR = { l: "start", m: "middle", r: "end" };
const V_ANCHOR = { a: "hanging", m: "central", s: "alphabetic", d: "text-after-edge" };

export function el(parent, tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  if (parent) parent.appendChild(node);
  return node;
}

export function group(parent, attrs = {}) {
  return el(parent, "g", attrs);
}

// A click target: the element answers clicks on board target `key` (see boards/*.py).
export function target(node, key) {
  node.setAttribute("data-target", key);
  return node;
}

// A tooltip (shown on hover, read by screen readers).
export function tip(node, words) {
  el(node, "title").textContent = words;
  return node;
}

export function text(parent, x, y, words, { size = 14, fill = "#222222", anchor = "la",
  stroke = null, weight = null } = {}) {
  const node = el(parent, "text", {
    x, y, "font-size": size, fill, "text-anchor": H_ANCHOR[anchor[0]],
    "dominant-baseline": V_ANCHOR[anchor[1]], "font-weight": weight,
  });
  if (stroke) {
    node.setAttribute("stroke", stroke);
    node.setAttribute("stroke-width", 3);
    node.setAttribute("paint-order", "stroke");
    node.setAttribute("stroke-linejoin", "round");
  }
  node.textContent = words;
  return node;
}

let measure = null;
// How wide `words` are drawn at `size` px (a canvas measures them: no DOM needed).
export function textWidth(words, size = 14) {
  if (!measure) measure = document.createElement("canvas").getContext("2d");
  measure.font = `${size}px ${FONT}`;
  return measure.measureText(words).width;
}

export function circle(parent, cx, cy, r, fill, outline = null, width = 1) {
  return el(parent, "circle", { cx, cy, r, fill: fill ?? "none", stroke: outline,
    "stroke-width": outline ? width : null });
}

export function rect(parent, x0, y0, x1, y1, fill = null, outline = null, width = 1) {
  return el(parent, "rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0,
    fill: fill ?? "none", stroke: outline, "stroke-width": outline ? width : null });
}

export function line(parent, x0, y0, x1, y1, stroke = "#000000", width = 1) {
  return el(parent, "line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke, "stroke-width": width,
    "stroke-linecap": "butt" });
}

// A point at `degrees` (0 = 3 o'clock, clockwise: Pillow's and SVG's y-down convention).
export function polar(cx, cy, r, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
}

// A pie slice from `start` to `end` degrees, as Pillow's pieslice.
export function pieslice(parent, cx, cy, r, start, end, fill, outline = null) {
  const [x0, y0] = polar(cx, cy, r, start);
  const [x1, y1] = polar(cx, cy, r, end);
  const large = end - start > 180 ? 1 : 0;
  return el(parent, "path", {
    d: `M ${cx} ${cy} L ${x0} ${y0} A ${r} ${r} 0 ${large} 1 ${x1} ${y1} Z`,
    fill, stroke: outline, "stroke-width": outline ? 1 : null,
  });
}

// A little house (a wooden finca, a town): a square with a roof.
export function house(parent, cx, cy, size, fill) {
  const half = size / 2;
  const g = group(parent);
  rect(g, cx - half, cy - half / 2, cx + half, cy + half, fill, "#222222");
  el(g, "polygon", {
    points: `${cx - half - 3},${cy - half / 2} ${cx},${cy - half * 1.4} ${cx + half + 3},${cy - half / 2}`,
    fill: "#7a2e12", stroke: "#222222",
  });
  return g;
}

// Legend items flowed left to right from (x, y), wrapping before `right`, as Pillow's
// Canvas.legend: an item is [symbol, words], symbol null or a function drawing a symbol
// centred at the point it gets (a 16-px square is left for it). Returns the last row's y.
export function legend(parent, x, y, items, right, { size = 13, lineHeight = 20,
  ink = "#222222", gap = 14 } = {}) {
  const left = x;
  for (const [symbol, words] of items) {
    const width = (symbol ? 20 : 0) + textWidth(words, size);
    if (x > left && x + width > right) {
      x = left;
      y += lineHeight;
    }
    if (symbol) {
      symbol(parent, x + 8, y);
      x += 20;
    }
    text(parent, x, y, words, { size, fill: ink, anchor: "lm" });
    x += textWidth(words, size) + gap;
  }
  return y;
}

// Text wrapped to at most `limit` characters a line (the pictures' _wrap).
export function wrap(words, limit) {
  const lines = [];
  let current = "";
  for (const word of words.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > limit) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(current);
  return lines;
}

// Dark ink on light fills, white on dark ones (the pictures' _text_colour).
export function textColour(fill) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(fill.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#222222" : "white";
}

// A new <svg> of the picture's size, scaled to its container (crisp at any size).
export function canvas(width, height, background, label) {
  const svg = el(null, "svg", {
    viewBox: `0 0 ${width} ${height}`, xmlns: NS, role: "img", "aria-label": label,
    "font-family": FONT, class: "board-svg",
  });
  rect(svg, 0, 0, width, height, background);
  return svg;
}

// The Replay view: open a record (an upload, or a tournament's game from Results), then step
// through it: forward and back, jump to any move, autoplay at a chosen speed; the board, the
// scores and the move list follow. A replay shows everything, hidden cards included.

import { api } from "./api.js";
import { renderBoard } from "./boards.js";
import {
  currentView, fillScores, h, revealInList, showError, showMessage, showView,
} from "./ui.js";

export function initReplay(meta) {
  const $ = (id) => document.getElementById(id);
  const els = {
    stage: $("replay"), board: $("replay-board"), title: $("replay-title"),
    source: $("replay-source"), slider: $("replay-slider"), position: $("replay-position"),
    scores: $("replay-scores"), moves: $("replay-moves"), play: $("replay-play"),
    speed: $("replay-speed"), hidden: $("replay-hidden"), hiddenList: $("replay-hidden-list"),
    file: $("replay-file"), drop: $("replay-drop"),
  };
  let replay = null; // the server's summary of the open record
  let step = 0; // the board shows the game after `step` moves
  let request = 0; // the latest frame asked for: older answers are dropped
  let timer = null;

  async function open(loading) {
    stop();
    let summary;
    try {
      summary = await loading;
    } catch (error) {
      showError(error);
      return false;
    }
    replay = summary;
    els.title.textContent = `${summary.label}, ${summary.num_players} player${summary.num_players > 1 ? "s" : ""}, seed ${summary.seed}`;
    const ending = summary.finished ? "finished" : "stops before the end";
    els.source.textContent = `${summary.source}: ${summary.steps} moves, ${ending}`;
    els.slider.max = summary.steps;
    listMoves();
    els.stage.hidden = false;
    showView("replay");
    showMessage(`Opened ${summary.source}.`, "note");
    await go(0);
    return true;
  }

  function seatName(seat) {
    return replay.seats[seat] || `player_${seat}`;
  }

  function listMoves() {
    const colours = meta.palettes[replay.game].player;
    const items = [h("li", { dataset: { step: 0 } }, h("span", { class: "num" }, ""), "The set-up")];
    for (const move of replay.moves) {
      items.push(h("li", { dataset: { step: move.step + 1 }, title: `action ${move.action}` },
        h("span", { class: "num" }, move.step + 1),
        h("span", { class: "seat", style: `--seat: ${colours[move.seat]}`,
          title: seatName(move.seat) }, `player_${move.seat}`),
        ` ${move.text}`));
    }
    els.moves.replaceChildren(...items);
  }

  async function go(target) {
    if (!replay) return;
    step = Math.max(0, Math.min(replay.steps, target));
    els.slider.value = step;
    for (const item of els.moves.querySelectorAll("li.current")) item.classList.remove("current");
    const item = els.moves.querySelector(`li[data-step="${step}"]`);
    if (item) {
      item.classList.add("current");
      revealInList(els.moves, item);
    }
    const next = replay.moves[step];
    if (step === 0) {
      els.position.textContent = next ? `The set-up. Next: ${seatName(next.seat)}: ${next.text}` : "The set-up.";
    } else if (step === replay.steps) {
      els.position.textContent = replay.finished ? `The end, after ${step} moves.` : `After ${step} moves (the record stops here).`;
    } else {
      els.position.textContent = `After move ${step} of ${replay.steps}. Next: ${seatName(next.seat)}: ${next.text}`;
    }
    const asked = ++request;
    let frame;
    try {
      frame = await api(`/api/replays/${replay.id}/steps/${step}`);
    } catch (error) {
      stop();
      showError(error);
      return;
    }
    if (asked !== request) return;
    const board = frame.board;
    renderBoard(els.board, replay.game, board, meta.palettes[replay.game]);
    els.board.dataset.step = step;
    const names = replay.seats.map((name, seat) => name || `player_${seat}`);
    fillScores(els.scores, names, frame.scores, board.current_player, board.extra_scores);
    const hidden = board.hidden || [];
    els.hidden.hidden = !hidden.length;
    els.hiddenList.replaceChildren(...hidden.flatMap(([label, words]) => [h("dt", {}, label),
      h("dd", {}, words)]));
  }

  // Autoplay shows every move: the next step is asked once the current one is drawn, at most
  // `speed` moves a second (a fixed interval outran a slow server, and each answer was dropped
  // for a newer request, so nothing was drawn until the end).
  async function tick() {
    if (!timer) return;
    if (!replay || step >= replay.steps) {
      stop();
      return;
    }
    const started = performance.now();
    await go(step + 1);
    if (!timer) return;
    const every = 1000 / Number(els.speed.value);
    timer = setTimeout(tick, Math.max(0, every - (performance.now() - started)));
  }

  async function start() {
    if (!replay) return;
    timer = setTimeout(tick, 1000 / Number(els.speed.value));
    els.play.textContent = "Pause";
    els.play.setAttribute("aria-pressed", "true");
    if (step >= replay.steps) await go(0);
  }

  function stop() {
    clearTimeout(timer);
    timer = null;
    els.play.textContent = "Play";
    els.play.setAttribute("aria-pressed", "false");
  }

  function upload(file) {
    if (!file) return;
    const name = encodeURIComponent(file.name || "the upload");
    open(api(`/api/replays?name=${name}`, { method: "POST", body: file }));
  }

  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(step - 1));
  $("replay-next").addEventListener("click", () => go(step + 1));
  $("replay-last").addEventListener("click", () => replay && go(replay.steps));
  els.play.addEventListener("click", () => (timer ? stop() : start()));
  els.speed.addEventListener("change", () => { if (timer) { stop(); start(); } });
  els.slider.addEventListener("input", () => go(Number(els.slider.value)));
  els.moves.addEventListener("click", (event) => {
    const item = event.target.closest("li[data-step]");
    if (item) go(Number(item.dataset.step));
  });
  els.file.addEventListener("change", () => {
    upload(els.file.files[0]);
    els.file.value = "";
  });
  for (const target of [els.drop, els.stage]) {
    target.addEventListener("dragover", (event) => {
      event.preventDefault();
      els.drop.classList.add("dragging");
    });
    target.addEventListener("dragleave", () => els.drop.classList.remove("dragging"));
    target.addEventListener("drop", (event) => {
      event.preventDefault();
      els.drop.classList.remove("dragging");
      upload(event.dataTransfer.files[0]);
    });
  }
  document.addEventListener("keydown", (event) => {
    if (currentView() !== "replay" || !replay) return;
    if (event.target.closest("input, select, textarea")) return;
    const keys = {
      ArrowLeft: () => go(step - 1), ArrowRight: () => go(step + 1), Home: () => go(0),
      End: () => go(replay.steps), " ": () => (timer ? stop() : start()),
    };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });

  return {
    // Open line `line` of tournament `run`'s games.jsonl.
    openRunGame: (run, line) => open(api("/api/replays/run", { method: "POST",
      json: { run, line } })),
  };
}

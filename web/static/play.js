// The Play view: set a game up (game, players, your seat, an agent code per other seat, seed,
// options), then play it: click a highlighted place on the board or a move in the list; the
// agents answer in the server's worker thread while the page polls. The page only ever gets
// your seat's view; once the game is over (or stopped) everything is shown and the record can
// be downloaded.

import { api } from "./api.js";
import { renderBoard } from "./boards.js";
import { fillScores, h, hideMessage, revealInList, showError, showMessage } from "./ui.js";

const POLL_MS = 250;
const DEFAULT_AGENT = "heuristic";

export function initPlay(meta) {
  const $ = (id) => document.getElementById(id);
  const els = {
    form: $("play-form"), game: $("play-game"), players: $("play-players"), seat: $("play-seat"),
    seed: $("play-seed"), pace: $("play-pace"), agents: $("play-agents"),
    options: $("play-options"), help: $("play-agent-help"), stage: $("play"),
    board: $("play-board"), title: $("play-title"), status: $("play-status"),
    actions: $("play-actions"), scores: $("play-scores"), moves: $("play-moves"),
    stop: $("play-stop"), download: $("play-download"), again: $("play-new"),
    chooser: $("chooser"), chooserList: $("chooser-list"),
  };
  const games = new Map(meta.games.map((game) => [game.name, game]));
  let view = null; // the server's latest view of the game
  let moves = []; // every move so far (the view sends the new ones)
  let busy = false; // a move is on its way: further clicks wait
  let polling = null;

  // --- the set-up form ------------------------------------------------------------------------
  const datalist = $("agent-codes");
  // the registry's codes that name no file, then the exported models of the listed runs
  datalist.replaceChildren(...meta.agents.examples.map((code) => h("option", { value: code })),
    ...meta.agents.models.map((model) => h("option", { value: model.code,
      label: `${model.code} (${model.game || "model"})` })));
  els.help.textContent = "Agent codes: " + Object.values(meta.agents.usage).join("; ") +
    `. Each decision thinks at most ${meta.limits.decision_seconds} s. Files are never named ` +
    "here: a run's exported model is seated as run:ID.";
  els.game.replaceChildren(...meta.games.map((game) => h("option", { value: game.name },
    game.label || game.name)));

  function refreshPlayers() {
    const game = games.get(els.game.value);
    const before = Number(els.players.value);
    els.players.replaceChildren(...game.players.map((n) => h("option", { value: n }, n)));
    els.players.value = game.players.includes(before) ? before : game.players[0];
    els.players.disabled = game.players.length === 1;
    refreshOptions(game);
    refreshSeats();
  }

  function refreshSeats() {
    const n = Number(els.players.value);
    const before = Number(els.seat.value) || 0;
    els.seat.replaceChildren(...Array.from({ length: n }, (_, s) => h("option", { value: s },
      s === 0 ? `player_0 (moves first)` : `player_${s}`)));
    els.seat.value = Math.min(before, n - 1);
    refreshAgents();
  }

  function refreshAgents() {
    const game = games.get(els.game.value);
    const n = Number(els.players.value);
    const seat = Number(els.seat.value);
    const previous = [...els.agents.querySelectorAll("input")].map((input) => input.value);
    const inputs = [];
    for (let s = 0, k = 0; s < n; s++) {
      if (s === seat) continue;
      inputs.push(h("label", {}, `player_${s}`, h("input", { type: "text", list: "agent-codes",
        name: `agent-${k}`, value: previous[k] || DEFAULT_AGENT, required: true,
        spellcheck: "false", "aria-label": `agent code of player_${s}` })));
      k++;
    }
    els.agents.replaceChildren(h("legend", {}, inputs.length ? "Opponents (agent codes)"
      : `Opponent: scripted inside the game${game.variant_label ? ` (${game.variant_label})`
        : ""}`), ...inputs);
  }

  function refreshOptions(game) {
    const entries = Object.entries(game.options);
    els.options.hidden = !entries.length;
    els.options.replaceChildren(h("legend", {}, "Options"), ...entries.map(([name, values]) =>
      h("label", {}, name, h("select", { name: `option-${name}`, dataset: { option: name } },
        h("option", { value: "" }, "default"),
        ...values.map((value) => h("option", { value: JSON.stringify(value) }, `${value}`))))));
  }

  els.game.addEventListener("change", refreshPlayers);
  els.players.addEventListener("change", refreshSeats);
  els.seat.addEventListener("change", refreshAgents);
  refreshPlayers();

  function settings() {
    const options = {};
    for (const select of els.options.querySelectorAll("select")) {
      if (select.value) options[select.dataset.option] = JSON.parse(select.value);
    }
    const seed = els.seed.value.trim();
    return {
      game: els.game.value, players: Number(els.players.value), seat: Number(els.seat.value),
      agents: [...els.agents.querySelectorAll("input")].map((input) => input.value.trim()),
      seed: seed === "" ? null : Number(seed), options, pace: Number(els.pace.value),
    };
  }

  els.form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const start = $("play-start");
    start.disabled = true;
    start.textContent = "Starting...";
    try {
      const fresh = await api("/api/games", { method: "POST", json: settings() });
      hideMessage();
      moves = [];
      els.moves.replaceChildren();
      els.form.hidden = true;
      els.stage.hidden = false;
      show(fresh);
    } catch (error) {
      showError(error);
    } finally {
      start.disabled = false;
      start.textContent = "Start";
    }
  });

  // --- the game -------------------------------------------------------------------------------
  function show(next) {
    view = next;
    const fresh = next.moves.filter((move) => move.step >= moves.length); // no move twice
    moves.push(...fresh);
    const palette = meta.palettes[view.game];
    const legalTargets = {};
    for (const action of view.legal) {
      if (action.target) (legalTargets[action.target] ||= []).push(action.id);
    }
    renderBoard(els.board, view.game, view.board, palette, { viewer: view.seat,
      legal: legalTargets, onTarget: clicked });
    els.board.dataset.step = view.step;
    els.board.dataset.status = view.status;
    const others = view.seats.filter((seat) => !seat.you).map((seat) => `${seat.name} ${seat.code}`);
    const described = games.get(view.label)?.variant_label; // a variant's words ("against Zara")
    els.title.textContent = `${view.label}: you are player_${view.seat}`
      + (others.length ? ` against ${others.join(", ")}` : described ? ` ${described}` : "");
    els.status.textContent = view.message;
    els.status.className = `status ${view.status}`;
    els.actions.replaceChildren(...view.legal.map((action) => h("li", {},
      h("button", { type: "button", dataset: { action: action.id, target: action.target || "" },
        onclick: () => send(action.id) }, action.text))));
    if (!view.legal.length) {
      els.actions.replaceChildren(h("li", { class: "muted" }, view.status === "thinking"
        ? "Waiting for the other players..." : "None."));
    }
    const names = view.seats.map((seat) => seat.you ? `${seat.name} (you)` : `${seat.name} (${seat.code})`);
    fillScores(els.scores, names, view.scores, view.board.current_player,
      view.board.extra_scores);
    appendMoves(fresh);
    const finished = ["over", "stopped", "failed"].includes(view.status);
    els.stop.disabled = finished;
    els.download.setAttribute("aria-disabled", `${!view.can_download}`);
    els.download.href = view.can_download ? `/api/games/${view.id}/record` : "#";
    schedulePoll();
  }

  function appendMoves(fresh) {
    const colours = meta.palettes[view.game].player;
    for (const move of fresh) {
      const who = move.seat === view.seat ? "you" : `player_${move.seat}`;
      els.moves.append(h("li", { title: `action ${move.action}` },
        h("span", { class: "num" }, move.step + 1),
        h("span", { class: "seat", style: `--seat: ${colours[move.seat] || "#555"}` }, who),
        ` ${move.text}`));
    }
    if (fresh.length) revealInList(els.moves, els.moves.lastElementChild);
  }

  function schedulePoll() {
    clearTimeout(polling);
    if (view && view.status === "thinking") polling = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    const id = view.id;
    try {
      const next = await api(`/api/games/${id}?since=${moves.length}`);
      if (view && view.id === id && !busy) show(next);
      else schedulePoll();
    } catch (error) {
      showError(error);
    }
  }

  // A click on the board: the move(s) clicked there. One legal move is played; several are
  // offered in a small chooser; a place whose moves are all illegal now is still sent, so that
  // the server says why it refuses; a place with no move in this decision is refused here.
  function clicked(key) {
    if (!view || busy) return;
    if (view.status !== "your_turn") {
      showMessage(`Not now: ${view.message}`, "error");
      return;
    }
    const legalIds = new Set(view.legal.map((action) => action.id));
    const ids = view.targets[key] || [];
    const legal = ids.filter((id) => legalIds.has(id));
    if (legal.length === 1) send(legal[0]);
    else if (legal.length > 1) choose(legal);
    else if (ids.length) send(ids[0]);
    else showMessage(`Nothing to do there in this decision: pick a highlighted place or a move from the list.`, "error");
  }

  function choose(ids) {
    const texts = new Map(view.legal.map((action) => [action.id, action.text]));
    els.chooserList.replaceChildren(...ids.map((id) => h("li", {}, h("button", { type: "button",
      onclick: () => { els.chooser.hidden = true; send(id); } }, texts.get(id)))));
    els.chooser.hidden = false;
    els.chooserList.querySelector("button").focus();
  }

  async function send(action) {
    if (!view || busy) return;
    busy = true;
    els.board.classList.add("busy");
    try {
      const next = await api(`/api/games/${view.id}/actions?since=${moves.length}`,
        { method: "POST", json: { action, step: view.step } });
      hideMessage();
      show(next);
    } catch (error) {
      showError(error); // refused: the game is unchanged, and so is the page
    } finally {
      busy = false;
      els.board.classList.remove("busy");
    }
  }

  $("chooser-cancel").addEventListener("click", () => { els.chooser.hidden = true; });
  els.chooser.addEventListener("keydown", (event) => {
    if (event.key === "Escape") els.chooser.hidden = true;
  });
  els.stop.addEventListener("click", async () => {
    if (!view) return;
    try {
      show(await api(`/api/games/${view.id}/stop?since=${moves.length}`, { method: "POST",
        json: {} }));
    } catch (error) {
      showError(error);
    }
  });
  els.download.addEventListener("click", (event) => {
    if (!view || !view.can_download) {
      event.preventDefault();
      showMessage("The record holds the deal's seed, which shows every hidden card: it can be downloaded once the game is over or stopped.", "note");
    }
  });
  els.again.addEventListener("click", () => {
    clearTimeout(polling);
    view = null;
    els.stage.hidden = true;
    els.form.hidden = false;
  });
}

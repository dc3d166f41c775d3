// The Results view: the tournaments under the server's runs folder (their table, plot and
// games, each game opening in the Replay view) and the training runs (their learning curve and
// evaluations).

import { api } from "./api.js";
import { h, showError } from "./ui.js";

const PAGE = 100;

export function initResults(meta, replay) {
  const root = document.getElementById("results");
  const rootNote = document.getElementById("results-root");
  let loaded = false;

  async function load() {
    let listing;
    try {
      listing = await api("/api/runs");
    } catch (error) {
      showError(error);
      return;
    }
    loaded = true;
    rootNote.textContent = listing.exists
      ? `From ${listing.root}/ (huerta serve --runs DIR picks another folder).`
      : `There is no folder ${listing.root}/ yet: tournaments (huerta tournament --out DIR) and training runs (huerta train) written there show here.`;
    const parts = [];
    parts.push(h("h3", {}, `Tournaments (${listing.tournaments.length})`));
    if (!listing.tournaments.length) parts.push(h("p", { class: "muted" }, "None found."));
    parts.push(...listing.tournaments.map(tournament));
    parts.push(h("h3", {}, `Training runs (${listing.training.length})`));
    if (!listing.training.length) parts.push(h("p", { class: "muted" }, "None found."));
    parts.push(...listing.training.map(training));
    root.replaceChildren(...parts);
  }

  function plot(run, kind, alt) {
    const src = `/api/runs/plot?run=${encodeURIComponent(run)}&kind=${kind}`;
    return h("a", { href: src, target: "_blank", rel: "noopener" },
      h("img", { src, alt, loading: "lazy", class: "plot" }));
  }

  function tournament(run) {
    const facts = [run.game, run.players ? `${run.players} players` : null,
      run.agents ? run.agents.join(", ") : null, `${run.games} games`].filter(Boolean);
    const games = h("div", { class: "games" });
    const button = h("button", { type: "button", onclick: () => listGames(run.id, 0, games) },
      `Show the games`);
    return h("article", { class: "run", dataset: { run: run.id } },
      h("h4", {}, run.id), h("p", { class: "muted" }, facts.join(" \u00b7 ")),
      h("div", { class: "run-body" },
        run.table ? h("pre", { class: "table" }, run.table) : h("p", { class: "muted" },
          "No table.txt yet (an unfinished tournament?)."),
        run.plot ? plot(run.id, "tournament", `win rates and ratings of ${run.id}`) : null),
      button, games);
  }

  async function listGames(run, offset, into) {
    let page;
    try {
      page = await api(`/api/runs/games?run=${encodeURIComponent(run)}&offset=${offset}&limit=${PAGE}`);
    } catch (error) {
      showError(error);
      return;
    }
    const rows = page.games.map((game) => game.error
      ? h("tr", {}, h("td", {}, game.line + 1), h("td", { colspan: 5, class: "muted" }, game.error))
      : h("tr", {},
        h("td", {}, game.line + 1),
        h("td", {}, game.agents.map((name, seat) => `${seat}: ${name}`).join(", ")),
        h("td", {}, (game.scores || []).join(" : ")),
        h("td", {}, game.terminated === false ? "truncated"
          : (game.winners || []).map((w) => `player_${w}`).join(", ") || "none"),
        h("td", {}, game.steps),
        h("td", {}, h("button", { type: "button", class: "small",
          onclick: () => replay.openRunGame(run, game.line) }, "Replay"))));
    const more = [];
    if (offset > 0) {
      more.push(h("button", { type: "button", onclick: () => listGames(run, Math.max(0, offset - PAGE), into) }, "Previous"));
    }
    if (offset + PAGE < page.total) {
      more.push(h("button", { type: "button", onclick: () => listGames(run, offset + PAGE, into) }, "Next"));
    }
    into.replaceChildren(
      h("table", { class: "games-table" },
        h("caption", {}, `Games ${offset + 1}-${Math.min(offset + PAGE, page.total)} of ${page.total}`),
        h("thead", {}, h("tr", {}, ...["line", "agents by seat", "scores", "winner", "steps", ""]
          .map((name) => h("th", { scope: "col" }, name)))),
        h("tbody", {}, ...rows)),
      h("div", { class: "buttons" }, ...more));
  }

  function training(run) {
    const facts = [run.game, run.players ? `${run.players} players` : null,
      run.budget || null,
      run.seed !== undefined && run.seed !== null ? `seed ${run.seed}` : null].filter(Boolean);
    const columns = run.eval.length ? Object.keys(run.eval[0]).filter((c) => c !== "time") : [];
    const table = run.eval.length ? h("table", { class: "eval-table" },
      h("caption", {}, "Evaluations (eval.csv)"),
      h("thead", {}, h("tr", {}, ...columns.map((c) => h("th", { scope: "col" }, c.replaceAll("_", " "))))),
      h("tbody", {}, ...run.eval.map((row) => h("tr", {}, ...columns.map((c) => h("td", {}, row[c]))))))
      : h("p", { class: "muted" }, "No evaluations yet.");
    return h("article", { class: "run", dataset: { run: run.id } },
      h("h4", {}, run.id), h("p", { class: "muted" }, facts.join(" \u00b7 ")),
      h("div", { class: "run-body" },
        run.plot ? plot(run.id, "training", `learning curve of ${run.id}`) : h("p", { class: "muted" }, "No learning_curve.png yet."),
        table));
  }

  document.getElementById("results-reload").addEventListener("click", load);
  document.addEventListener("huerta:view", (event) => {
    if (event.detail === "results" && !loaded) load();
  });
}

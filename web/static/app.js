// The page: three views (Replay, Play, Results) behind tabs, one message bar, and the facts the
// server tells once (games, agent codes, the colours of each game's pictures, the modules that
// draw each game's board).

import { api, setToken } from "./api.js";
import { loadBoards } from "./boards.js";
import { initPlay } from "./play.js";
import { initReplay } from "./replay.js";
import { initResults } from "./results.js";
import { hideMessage, showError, showView } from "./ui.js";

async function main() {
  document.getElementById("message-close").addEventListener("click", hideMessage);
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  for (const link of document.querySelectorAll("[data-view-link]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      showView(link.dataset.viewLink);
    });
  }
  let meta;
  try {
    meta = await api("/api/meta");
    setToken(meta.token);
    await loadBoards(meta.boards); // every game's board module, as the server names them
  } catch (error) {
    showError(error);
    return;
  }
  const replay = initReplay(meta);
  initPlay(meta);
  initResults(meta, replay);
  showView(location.hash.slice(1));
  document.body.dataset.ready = "true"; // wired up: the tests wait for this
}

main();

"""The web server's routes: the page, its static files and a small JSON API.

    GET  /                               the page (static/index.html)
    GET  /api/meta                       games, player counts, options, agent codes, colours,
                                         each game's board script (static/<board>.js)
    POST /api/replays                    open an uploaded record (the body is the file)
    POST /api/replays/run                open a game of a tournament: {"run": ID, "line": K}
    GET  /api/replays/{id}/steps/{k}     the board before move k (k = moves: the end)
    POST /api/games                      start a game: {"game", "players", "seat", "agents", ...}
    GET  /api/games/{id}?since=K         the human seat's view (moves from K on)
    POST /api/games/{id}/actions         the human's move: {"action": ID, "step": STEP}
    POST /api/games/{id}/stop            end the game here (everything is then shown)
    GET  /api/games/{id}/record          the record, once the game is over or stopped
    GET  /api/runs                       the tournaments and training runs under --runs
    GET  /api/runs/games?run=ID          a page of a tournament's games
    GET  /api/runs/plot?run=ID&kind=K    a run's plot (tournament or training)

Every refusal is a 4xx JSON body `{"error": {"input": ..., "reason": ...}}` (see errors.py);
nothing a request sends can stop the server or change a game it does not name. Only the page
itself may call the API (`guard.py`: Host, Origin, JSON and the per-server token, checked before
the body is read); the agents it seats never load a pickle or a file a request names
(`agents.py`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import parse_json
from huerta.envs.core.registry import game_choices, own_player_counts, resolve_game

from . import boards
from .agents import EXAMPLES, MAX_DECISION_SECONDS, WEB_USAGE
from .errors import WebError
from .guard import HostRule, RequestGuard, new_token
from .replays import MAX_UPLOAD_BYTES, ReplayStore, parse_upload
from .runs import RunsFolder
from .sessions import MAX_PACE, AgentThreads, SessionStore

STATIC = Path(__file__).resolve().parent / "static"
MAX_JSON_BODY = 64 << 10  # a new game's settings or a move: a few hundred bytes


async def _read_body(request: Request, limit: int, what: str) -> bytes:
    """The request's body, refused (413) past `limit` bytes before it is read whole."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise WebError(413, what, f"{int(length):,} bytes is over the {limit:,}-byte limit")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise WebError(413, what, f"the upload is over the {limit:,}-byte limit")
        chunks.append(chunk)
    return b"".join(chunks)


async def _read_json(request: Request) -> Any:
    """A small JSON body, parsed strictly (no NaN, no duplicate keys, bounded nesting)."""
    raw = await _read_body(request, MAX_JSON_BODY, "body")
    try:
        return parse_json(raw, "the request body", limit=MAX_JSON_BODY)
    except CorruptRecordError as exc:
        raise WebError(422, "body", str(exc)) from None


def _int_param(value: str | None, name: str, default: int) -> int:
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise WebError(422, name, f"must be an integer, got {value[:40]!r}") from None


def game_catalogue() -> list[dict[str, Any]]:
    """Every name the page offers (alpujarras-solo included), with its player counts, options
    (name -> valid values; a variant's own options only under the variant, as its spec's
    `GameVariant.options` says), the label of its menu entry and a variant's own words
    (`GameVariant.label`, "against Zara"; empty for a game)."""
    games = []
    for name in game_choices():
        spec, fixed = resolve_game(name)
        counts = [fixed] if fixed is not None else list(own_player_counts(spec.name))
        variant = spec.variants.get(name)
        options = {k: list(v) for k, v in spec.options.items()}
        if variant is None:  # a variant's own options (the solo game's) are not the game's
            taken = {o for v in spec.variants.values() for o in v.options}
            options = {k: v for k, v in options.items() if k not in taken}
        words = variant.label if variant is not None else ""  # "against Zara"
        label = f"{name} ({words})" if words else name
        games.append({"name": name, "game": spec.name, "players": counts, "options": options,
                      "label": label, "variant_label": words})
    return games


def create_app(runs: str | Path = "runs", workers: int = 4, allow_remote: bool = False,
               hosts: tuple[str, ...] = ()) -> FastAPI:
    """The server's application: replays, play sessions (agents in `workers` threads) and the
    results under `runs`. Requests must come from its own page (`guard.py`); `allow_remote`
    answers to this machine's names and IP addresses (and `hosts`) besides the loopback ones."""
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="huerta-agent")
    folder = RunsFolder(runs)
    sessions = SessionStore(AgentThreads(executor, workers), folder)
    replays = ReplayStore()
    token = new_token()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        sessions.close_all()
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="huerta", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.state.sessions = sessions
    app.state.replays = replays
    app.state.runs = folder
    app.state.token = token
    app.add_middleware(RequestGuard, token=token, hosts=HostRule(allow_remote, hosts))

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        what = "method" if exc.status_code == 405 else "path"
        reason = (f"{request.method} is not allowed on {request.url.path}"
                  if exc.status_code == 405 else f"nothing at {request.url.path}")
        return JSONResponse({"error": {"input": what, "reason": reason}},
                            status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": ("request",), "msg": "invalid"}
        name = str(first.get("loc", ("request",))[-1])
        return JSONResponse({"error": {"input": name, "reason": first.get("msg", "invalid")}},
                            status_code=422)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        # a bug, not bad input: said in one line (the server logs the traceback and carries on)
        reason = f"internal error ({type(exc).__name__}: {exc})"[:300]
        return JSONResponse({"error": {"input": "server", "reason": reason}}, status_code=500)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        return {
            "games": game_catalogue(),
            "agents": {"codes": list(WEB_USAGE), "usage": dict(WEB_USAGE),
                       "examples": list(EXAMPLES), "models": folder.models()},
            "palettes": boards.palettes(),
            "boards": boards.board_scripts(),
            "limits": {"upload_bytes": MAX_UPLOAD_BYTES, "pace_seconds": MAX_PACE,
                       "decision_seconds": MAX_DECISION_SECONDS},
            "runs": str(folder.root),
            "token": token,  # for the X-Huerta-Token header (guard.py)
        }

    # --- replays ----------------------------------------------------------------------------------
    @app.post("/api/replays", status_code=201)
    async def open_upload(request: Request, name: str = "the upload") -> dict[str, Any]:
        raw = await _read_body(request, MAX_UPLOAD_BYTES, "record")
        source = name[:200] or "the upload"

        def build() -> dict[str, Any]:
            record, _ = parse_upload(raw, source)
            return replays.add(record, source).summary()

        return await run_in_threadpool(build)

    @app.post("/api/replays/run", status_code=201)
    async def open_run_game(request: Request) -> dict[str, Any]:
        body = await _read_json(request)
        if not isinstance(body, dict):
            raise WebError(422, "body", "must be a JSON object {\"run\": ID, \"line\": K}")
        run, line = body.get("run"), body.get("line")
        if not isinstance(run, str):
            raise WebError(422, "run", f"must be a run id (a string), got {run!r}"[:120])
        if isinstance(line, bool) or not isinstance(line, int):
            raise WebError(422, "line", f"must be a line number (an integer), got {line!r}"[:120])

        def build() -> dict[str, Any]:
            record, names, source = folder.game_record(run, line)
            return replays.add(record, source, names).summary()

        return await run_in_threadpool(build)

    @app.get("/api/replays/{replay_id}/steps/{step}")
    def replay_step(replay_id: str, step: str) -> dict[str, Any]:
        return replays.get(replay_id).frame(_int_param(step, "step", 0))

    # --- play -------------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    async def new_game(request: Request) -> dict[str, Any]:
        body = await _read_json(request)
        return await run_in_threadpool(lambda: sessions.create(body).view())

    @app.get("/api/games/{session_id}")
    def game_view(session_id: str, since: str | None = None) -> dict[str, Any]:
        return sessions.get(session_id).view(_int_param(since, "since", 0))

    @app.post("/api/games/{session_id}/actions")
    async def game_action(session_id: str, request: Request,
                          since: str | None = None) -> dict[str, Any]:
        session = sessions.get(session_id)
        body = await _read_json(request)
        if not isinstance(body, dict):
            raise WebError(422, "body", "must be a JSON object {\"action\": ID, \"step\": N}")
        action, step = body.get("action"), body.get("step")
        if isinstance(action, bool) or not isinstance(action, int):
            raise WebError(422, "action", f"must be an action id (an integer), got "
                           f"{json.dumps(action)[:60]}")
        if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
            raise WebError(422, "step", f"must be an integer, got {json.dumps(step)[:60]}")
        start = _int_param(since, "since", 0)

        def play() -> dict[str, Any]:
            session.act(action, step)
            return session.view(start)

        return await run_in_threadpool(play)

    @app.post("/api/games/{session_id}/stop")
    async def game_stop(session_id: str, since: str | None = None) -> dict[str, Any]:
        session = sessions.get(session_id)
        await run_in_threadpool(session.stop)
        return await run_in_threadpool(session.view, _int_param(since, "since", 0))

    @app.get("/api/games/{session_id}/record")
    def game_record(session_id: str) -> Response:
        session = sessions.get(session_id)
        record = session.record_json()
        filename = f"huerta-{session.label}-seed{record['seed']}.json"
        return Response(json.dumps(record, separators=(",", ":")) + "\n",
                        media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    # --- results ----------------------------------------------------------------------------------
    @app.get("/api/runs")
    def runs_listing() -> dict[str, Any]:
        return folder.listing()

    @app.get("/api/runs/games")
    def runs_games(run: str = "", offset: str | None = None,
                   limit: str | None = None) -> dict[str, Any]:
        return folder.games(run, _int_param(offset, "offset", 0), _int_param(limit, "limit", 100))

    @app.get("/api/runs/plot")
    def runs_plot(run: str = "", kind: str = "") -> Response:
        return Response(folder.plot(run, kind), media_type="image/png")

    return app

"""`huerta export RUN`: a trained MaskablePPO policy as a small numpy file (`learned:PATH`).

Only the policy's path of the network is kept (the trunk, the policy head and the action layer;
neither the value head nor the optimiser state), layer by layer as weight and bias arrays, with
`about`: what the policy plays and how it was trained, read from the run's `config.json` and
`eval.csv`. See `huerta.agents.learned` for the format and the agent that plays it.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from huerta.agents.learned import PolicyNetwork
from huerta.agents.ppo import check_ppo_file, ppo_model_path
from huerta.envs.core.errors import InvalidConfigError

from ..config import DEFAULT_STEPS, TrainConfig
from ..policy_arrays import policy_layers
from ..runs import best_candidates, best_key, rates_of, read_eval_rows, run_provenance
from ..threads import update_threads

DTYPES = ("float16", "float32")


def run_facts(run: Path) -> dict[str, Any]:
    """How the PPO run in `run` was trained: its method, command line, seed, torch threads
    (PPO's updates'; `imitation_threads` the warm start's fit), steps, warm start, best
    evaluation, wall time (the imitation's, then from the first evaluation, at step 0, to the
    last, at the end; a resumed run's pause counts too), and where it came from
    (`run_provenance`: commit and libraries)."""
    facts: dict[str, Any] = {"method": "ppo"}
    config_path = run / "config.json"
    imitation_path = run / "imitation.json"
    imitation = json.loads(imitation_path.read_text()) if imitation_path.is_file() else None
    if config_path.is_file():
        config = json.loads(config_path.read_text())
        game = config.get("game")
        name = f"{game}-solo" if config.get("players") == 1 else game
        flags = ""
        from ..games import default_method

        default = default_method(game, config.get("players", 2))
        if config.get("method", "ppo") != default:
            flags += f" --method {config.get('method', 'ppo')}"
        if config.get("steps") != DEFAULT_STEPS:
            flags += f" --steps {config.get('steps')}"
        if config.get("imitation_games", 0) != TrainConfig.imitation_games:
            flags += f" --imitation-games {config.get('imitation_games', 0)}"
        if config.get("threads") is not None:
            flags += f" --threads {config['threads']}"
        facts["method"] = config.get("method") or "ppo"
        facts["command"] = (f"huerta train {name} --seed {config.get('seed')}{flags} "
                            f"--out {config.get('out') or run}")
        facts["seed"] = config.get("seed")
        facts["threads"] = update_threads(config.get("threads"))
        facts.update({k: config.get(k) for k in ("steps", "players", "net_arch",
                                                 "shared_layers", "imitation_games")})
    if imitation is not None:
        facts["imitation_agreement"] = round(imitation["agreement"], 4)
        if "threads" in imitation:
            facts["imitation_threads"] = imitation["threads"]

    _, raw = read_eval_rows(run / "eval.csv")
    times = [datetime.datetime.fromisoformat(r["time"]) for r in raw if r.get("time")]
    if len(times) >= 2:  # the step-0 evaluation opens a run and the last one closes it
        warm = imitation["seconds"] if imitation is not None else 0.0
        facts["wall_seconds"] = round((max(times) - min(times)).total_seconds() + warm)
        facts["finished"] = max(times).date().isoformat()
    rows = best_candidates(run)
    if rows:
        best = max(rows, key=lambda r: best_key(rates_of(r)))
        facts["best_steps"] = int(best["steps"])
        facts["best_eval"] = {k: round(v, 4) for k, v in rates_of(best).items()}
    facts.update(run_provenance(run))
    return facts


def export_policy(source: str | Path, out: str | Path | None = None,
                  dtype: str = "float16", trained: dict[str, Any] | None = None) -> Path:
    """Write the policy of `source` (a MaskablePPO `.zip`, or a run folder: its best model) to
    `out` (default: `best_policy.npz` beside the model) and return the path. `trained` adds to
    (or overrides) what the file says about the training."""
    if dtype not in DTYPES:
        raise InvalidConfigError(f"export dtype {dtype!r} is not one of {', '.join(DTYPES)}")
    source = Path(source)
    if source.is_dir() and (source / "afterstate.json").is_file():
        return _export_value(source, out, dtype)
    if source.is_dir() and ((source / "cem.jsonl").is_file() or _method(source) == "cem"):
        return _export_weights(source, out)
    from sb3_contrib import MaskablePPO

    if not source.exists():
        raise InvalidConfigError(f"{source}: no run folder or MaskablePPO .zip there")
    if source.is_dir() and not any((source / n).is_file()
                                   for n in ("best_model.zip", "final_model.zip")):
        raise InvalidConfigError(f"{source}: no best_model.zip or final_model.zip in this "
                                 "folder (is it a run folder of `huerta train`?)")
    model_path = ppo_model_path(str(source))
    check_ppo_file(model_path)
    run = source if source.is_dir() else model_path.parent
    model = MaskablePPO.load(str(model_path), device="cpu")
    layers, activation = policy_layers(model)
    config = json.loads((run / "config.json").read_text()) if (run / "config.json").is_file() \
        else {}
    from huerta.envs.core.registry import game_specs

    sizes = (int(model.observation_space.shape[0]), int(model.action_space.n))
    games = [s.name for s in game_specs() if (s.observation_size, s.num_actions) == sizes]
    game = config.get("game") or (games[0] if len(games) == 1 else None)
    if game is None:
        raise InvalidConfigError(f"{model_path}: no config.json beside it, and its sizes {sizes} "
                                 "do not name one game")
    about = {
        "game": game, "players": int(config.get("players", 2)),
        "observation_size": sizes[0], "num_actions": sizes[1], "activation": activation,
        "dtype": dtype, "source": model_path.name,
        "exported": datetime.date.today().isoformat(),
        "trained": {**run_facts(run), **(trained or {})},
    }
    arrays = {}
    for i, (weight, bias) in enumerate(layers):
        arrays[f"weight_{i}"] = weight.astype(dtype)
        arrays[f"bias_{i}"] = bias.astype(dtype)
    out = Path(out) if out is not None else model_path.parent / "best_policy.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial.npz")
    np.savez_compressed(partial, about=np.array(json.dumps(about)), **arrays)
    PolicyNetwork(partial)  # the file reads back as a policy before it takes the name
    os.replace(partial, out)
    return out


def _export_run_file(run: Path, out: str | Path | None, model_class: Any, unfinished: str,
                     **save: Any) -> Path:
    """The best_policy.npz a run wrote itself (with how it was trained), read as `model_class`,
    dated and copied to `out` (its `save` options, e.g. a dtype, applied); `unfinished` says why
    a run has none yet."""
    best = run / "best_policy.npz"
    if not best.is_file():
        raise InvalidConfigError(f"{run}: no best_policy.npz yet ({unfinished}; continue it "
                                 "with --resume)")
    model = model_class.load(best)
    model.about.update({**save, "exported": datetime.date.today().isoformat()})
    out = Path(out) if out is not None else best
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial.npz")
    model.save(partial, **save)
    model_class.load(partial)  # the file reads back before it takes the name
    os.replace(partial, out)
    return out


def _export_value(run: Path, out: str | Path | None, dtype: str) -> Path:
    """An afterstate run's best value copied to `out`, in `dtype`."""
    from huerta.agents.afterstate import ValueNetwork

    return _export_run_file(run, out, ValueNetwork,
                            "the afterstate run has not finished an evaluation", dtype=dtype)


def _method(run: Path) -> str | None:
    """The training method a run folder's config.json names (None without one)."""
    try:
        config = json.loads((run / "config.json").read_text())
    except (OSError, ValueError):
        return None
    return config.get("method") if isinstance(config, dict) else None


def _export_weights(run: Path, out: str | Path | None) -> Path:
    """A cem run's best constants copied to `out` (constants have no dtype: a dozen numbers in
    JSON)."""
    from huerta.agents.value_weights import ValueWeights

    return _export_run_file(run, out, ValueWeights, "the cem run has not finished")

"""What `huerta benchmark` takes as AGENT, turned into an agent, and each agent's identity.

AGENT is one of:

- an agent code of the registry (`random`, `heuristic`, `mcts:400`, `ppo:PATH`, `rllib:PATH`,
  any code added there later); a code's name is looked up first, so `mcts:400` is never read as
  a module;
- `module:function` (or `module:Class`, `module:object`, dotted attributes allowed): the module
  is imported with the current folder on `sys.path`, as `python -m` does. A function
  `f(observation) -> action` plays through `CallablePolicy`; an object with `act` is the agent;
  a class with `act` is instantiated with `seed=` (or without arguments if it takes none);
- a MaskablePPO model file (a path ending in `.zip`, or a run folder), as `ppo:PATH`;
- from Python, an agent object or a callable itself.

Spec strings are resolved again in every worker process (only the string travels); Python
objects are used as they are with one worker and pickled to each game with more (they must be
picklable then). Every problem is an `InvalidConfigError` naming the input and the reason.

An agent's identity for the leaderboard is (code, version): the version follows play
(`huerta.agents.versions`): 12 hex digits of a sha256 of the agent's code and every huerta
module it imports, the game's engine, the heuristic it plays, and the model file (or policy
folder) it reads, so an edited rule, heuristic or retrained model is a new version. User code
counts its defining file and the huerta modules that imports.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pickle
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from huerta.agents.versions import play_version
from huerta.envs.core.errors import HuertaError, InvalidConfigError
from huerta.envs.core.policies import CallablePolicy, policy_action

NO_SOURCE = "no-source"  # the version of code whose source file cannot be found
_NAME = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")
FORMS = ("an agent code (random, heuristic, mcts:400, ppo:PATH, ...), a Python 'module:function' "
         "or 'module:Class' importable from the current folder, or a MaskablePPO model (.zip)")


@dataclass(frozen=True)
class AgentIdentity:
    """Who an agent is in the leaderboard: its code, the version of its code or model, and the
    kind of spec it came from (registry, model, module, object)."""

    code: str
    version: str
    kind: str

    @property
    def label(self) -> str:
        """code@version, as the leaderboard's plot names it."""
        return f"{self.code}@{self.version}"


def spec_kind(spec: Any) -> str:
    """registry, model, module or object: which form of AGENT `spec` is (strings are checked
    for shape only; nothing is imported or loaded)."""
    if not isinstance(spec, str):
        return "object"
    from huerta.agents.registry import agent_codes

    text = spec.strip()
    if not text:
        raise InvalidConfigError(f"no agent given: {FORMS}")
    name = text.partition(":")[0].strip().lower()
    if name in agent_codes():
        return "registry"
    if text.lower().endswith(".zip") or (":" not in text and Path(text).expanduser().is_dir()):
        return "model"
    if ":" in text:
        module, _, attr = text.partition(":")
        if not (_NAME.match(module.strip()) and _NAME.match(attr.strip())):
            raise InvalidConfigError(f"agent {spec!r} is not a Python 'module:function' (both "
                                     f"parts dotted names); give {FORMS}")
        return "module"
    raise InvalidConfigError(f"unknown agent {spec!r}: give {FORMS}")


def registry_code(spec: str) -> str:
    """The registry code a registry or model spec stands for (`x.zip` -> `ppo:x.zip`)."""
    text = spec.strip()
    if spec_kind(text) != "registry":
        return f"ppo:{text}"
    name, colon, arg = text.partition(":")
    return f"{name.strip().lower()}{colon}{arg.strip()}"


def _cwd_on_path() -> None:
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)


def import_object(spec: str) -> Any:
    """The object `module:attr` names; the module found from the current folder too."""
    module_name, _, attr = spec.strip().partition(":")
    module_name, attr = module_name.strip(), attr.strip()
    _cwd_on_path()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise InvalidConfigError(
                f"agent {spec!r}: no module named {exc.name!r} (looked in the current folder "
                f"{os.getcwd()} and the installed packages)"
            ) from None
        raise InvalidConfigError(f"agent {spec!r}: importing {module_name} failed: {exc}"
                                 ) from None
    except Exception as exc:  # the user's module raised while importing
        raise InvalidConfigError(f"agent {spec!r}: importing {module_name} failed: "
                                 f"{type(exc).__name__}: {exc}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InvalidConfigError(f"agent {spec!r}: module {module_name} has no attribute "
                                     f"{attr!r}")
        obj = getattr(obj, part)
    return obj


def as_agent(obj: Any, seed: int | None, where: str) -> Any:
    """An agent from a user's object: a class with `act` is instantiated (with `seed=` when it
    takes it), an object with `act` is used, a function is wrapped in `CallablePolicy`."""
    if isinstance(obj, type):
        if not callable(getattr(obj, "act", None)):
            raise InvalidConfigError(f"agent {where}: class {obj.__name__} has no act(observation)"
                                     f" method")
        try:
            accepts_seed = "seed" in inspect.signature(obj).parameters
        except (TypeError, ValueError):
            accepts_seed = False
        try:
            return obj(seed=seed) if accepts_seed else obj()
        except Exception as exc:
            raise InvalidConfigError(f"agent {where}: {obj.__name__}() failed: "
                                     f"{type(exc).__name__}: {exc}") from None
    if callable(getattr(obj, "act", None)):
        return obj
    if callable(obj):
        return CallablePolicy(obj)
    raise InvalidConfigError(f"agent {where}: {type(obj).__name__} {obj!r} is not callable and "
                             f"has no act(observation) method")


def make_benchmark_agent(spec: Any, game: str, seed: int | None = None) -> Any:
    """An agent for one game from any AGENT form (tournament workers call this with the spec
    string, so user code is imported in the worker)."""
    kind = spec_kind(spec)
    if kind == "object":
        return as_agent(spec, seed, _object_name(spec))
    if kind == "module":
        return as_agent(import_object(spec), seed, repr(spec))
    from huerta.agents import make_agent

    return make_agent(registry_code(spec), game=game, seed=seed)


def check_benchmark_agent(spec: Any, game: str, players: int, workers: int = 1) -> AgentIdentity:
    """Check `spec` before the first game and return its identity: a registry code and its
    argument as `make_agent` checks them (no human: a benchmark plays hundreds of games), and
    user code built and asked for one move of a fresh game, whose answer must be legal. A
    Python object with more than one worker must be picklable."""
    kind = spec_kind(spec)
    if kind == "registry" and spec.strip().partition(":")[0].strip().lower() == "human":
        raise InvalidConfigError("a human agent cannot be benchmarked (hundreds of games): "
                                 "play it with huerta play")
    if kind == "object" and workers > 1:
        try:
            pickle.dumps(spec)
        except Exception as exc:
            raise InvalidConfigError(
                f"agent {_object_name(spec)} cannot be sent to worker processes (it does not "
                f"pickle: {exc}); use workers=1, or pass it as a 'module:function' string"
            ) from None
    agent = make_benchmark_agent(spec, game, seed=0)
    if kind in ("module", "object"):
        _try_one_move(agent, spec, game, players)
    return agent_identity(spec, game, agent)


def _try_one_move(agent: Any, spec: Any, game: str, players: int) -> None:
    """Ask a user's agent for the first move of a game: a crash or an illegal answer is refused
    now, naming the agent, rather than in a worker mid-benchmark."""
    from huerta.envs.core.registry import get_game

    state = get_game(game).new_game(players, seed=0)
    seat = state.current_player
    obs = {"observation": state.observe(seat), "action_mask": state.legal_mask().astype(np.int8)}
    if hasattr(agent, "reset"):
        agent.reset(seed=0)
    where = spec if isinstance(spec, str) else _object_name(spec)
    try:
        policy_action(agent, state, seat, obs)
    except HuertaError as exc:
        raise InvalidConfigError(f"agent {where!r}: {exc}") from None
    except Exception as exc:
        raise InvalidConfigError(f"agent {where!r} failed on the first move of a {game} game: "
                                 f"{type(exc).__name__}: {exc}") from None


def agent_identity(spec: Any, game: str, agent: Any | None = None) -> AgentIdentity:
    """(code, version, kind) of an AGENT (see the module docstring); `agent` is the built agent
    when the caller has it (registry codes are built otherwise). The version follows play
    (`huerta.agents.versions`): the agent's code and what it imports, the game's engine, the
    heuristic it plays and the model files it reads."""
    kind = spec_kind(spec)
    if kind == "object":
        return AgentIdentity(_object_name(spec), _code_version(_defining(spec), game), kind)
    if kind == "module":
        obj = import_object(spec)
        target = obj.f if isinstance(obj, CallablePolicy) else _defining(obj)
        return AgentIdentity(spec.strip(), _code_version(target, game), kind)
    code = registry_code(spec)
    name, _, arg = code.partition(":")
    name, arg = name.strip().lower(), arg.strip()
    if name == "ppo":
        from huerta.agents.ppo import ppo_model_path

        files = [ppo_model_path(arg)]
        return AgentIdentity(code, play_version(["huerta.agents.ppo"], game, files), kind)
    if name == "learned":
        from huerta.agents.learned import learned_files

        files = learned_files(game, arg or None)
        return AgentIdentity(code, play_version(["huerta.agents.learned"], game, files), kind)
    if name == "rllib":
        from huerta.agents.rllib_agent import rllib_policy_path

        files = [rllib_policy_path(arg)]
        return AgentIdentity(code, play_version(["huerta.agents.rllib_agent"], game, files),
                             kind)
    if agent is None:
        from huerta.agents import make_agent

        agent = make_agent(code, game=game, seed=0)
    return AgentIdentity(code, _code_version(type(agent), game), kind)


def _defining(obj: Any) -> Any:
    """The function or class whose source defines `obj` (an instance's type)."""
    return obj if inspect.isfunction(obj) or isinstance(obj, type) else type(obj)


def _object_name(obj: Any) -> str:
    """`module:qualname` of a Python object's function or class (its type's for instances)."""
    target = obj if inspect.isfunction(obj) or isinstance(obj, type) else type(obj)
    module = getattr(target, "__module__", None) or "python"
    return f"{module}:{getattr(target, '__qualname__', type(target).__name__)}"


def _code_version(target: Any, game: str) -> str:
    """The play version of the code defining `target` for `game`: its module (followed through
    its huerta imports) with the game's engine; NO_SOURCE when it has no source file (code
    typed at a prompt)."""
    module = getattr(target, "__module__", None)
    try:
        source = inspect.getsourcefile(target)
    except TypeError:
        source = None
    if source is None or not Path(source).is_file():
        return NO_SOURCE
    if module and module.startswith("huerta."):
        return play_version([module], game)
    return play_version([], game, scripts=[Path(source)])

"""The RLModule an RLlib run trains: RLlib's default PPO torch module over the masking observation
dict, its spec, and how a trained one is saved for `rllib:PATH` to play."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

try:
    import torch
    from gymnasium import spaces
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
        DefaultPPOTorchRLModule,
    )
    from ray.rllib.core.columns import Columns
    from ray.rllib.utils.torch_utils import FLOAT_MIN
except ImportError as exc:  # the `ray` extra
    raise ImportError(
        "the rllib backend needs Ray RLlib: pip install 'huerta[ray]'"
    ) from exc

from ..runs import replace_folder

POLICY_FILE = "huerta_policy.json"


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module over the masking observation dict.

    The observation space is a Dict of `observations` (what the encoder, the policy and the
    value networks see) and `action_mask` (1 legal, 0 illegal), the contract of RLlib's
    `ActionMaskingTorchRLModule` example; this module is that example on the non-deprecated
    `DefaultPPOTorchRLModule`, splitting the dict without mutating the batch. Masked logits
    become the float minimum (`log(mask)` clamped), so a masked action is never sampled nor
    chosen, and the PPO loss sees the same masked distribution as the sampler.
    """

    def __init__(self, *, observation_space: Any = None, action_space: Any = None,
                 **kwargs: Any) -> None:
        if not (isinstance(observation_space, spaces.Dict)
                and {"observations", "action_mask"} <= set(observation_space.spaces)):
            raise ValueError(
                "MaskedPPOTorchRLModule needs a Dict observation space with 'observations' and "
                f"'action_mask'; got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observations"],
                         action_space=action_space, **kwargs)

    def setup(self) -> None:
        super().setup()  # networks built for the observations alone
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if isinstance(obs, Mapping):
            return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}
        return batch.get("action_mask"), batch

    @staticmethod
    def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        if mask is not None:
            out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(
                torch.log(mask.float()), min=FLOAT_MIN)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def module_spec(net_arch: Sequence[int], observation_space: Any = None,
                action_space: Any = None) -> Any:
    """The `RLModuleSpec` of `main` and of every snapshot: `MaskedPPOTorchRLModule` with separate
    policy and value networks of `net_arch` (tanh), as SB3's `MlpPolicy`."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=observation_space,
        action_space=action_space,
        model_config={"fcnet_hiddens": list(net_arch), "fcnet_activation": "tanh",
                      "vf_share_layers": False},
    )


def save_policy(module: Any, path: Path, info: Mapping[str, Any]) -> None:
    """Save `module` as an RLModule checkpoint at `path` with huerta_policy.json (the game, the
    sizes, the steps: what `rllib:PATH` checks before loading), replacing `path` whole."""

    def write(folder: Path) -> None:
        module.save_to_path(folder)
        (folder / POLICY_FILE).write_text(json.dumps(dict(info), indent=2) + "\n")

    replace_folder(Path(path), write)

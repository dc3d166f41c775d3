"""A MaskablePPO model's policy read into numpy arrays: what `huerta export` writes and what the
training opponents play (`selfplay.BatchedPolicy`), with no torch call per move.

Only the policy's path of the network is read (the trunk, the policy head and the action layer),
layer by layer as (weight, bias) arrays. Kept apart from export.py, which reads run folders and
their settings, so that the self-play opponents below the trainer can use it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huerta.agents.learned import ACTIVATIONS, PolicyNetwork
from huerta.envs.core.errors import InvalidConfigError


def policy_layers(model: Any) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The (weight as inputs x outputs, bias) of each dense layer on the policy's path of a
    MaskablePPO model, in order, and the activation between them."""
    from torch import nn

    policy = model.policy
    modules = [*policy.pi_features_extractor.modules(), *policy.mlp_extractor.policy_net.modules(),
               policy.action_net]
    layers: list[tuple[np.ndarray, np.ndarray]] = []
    activations: set[str] = set()
    for module in modules:
        if isinstance(module, nn.Linear):
            layers.append((module.weight.detach().numpy().T.copy(),
                           module.bias.detach().numpy().copy()))
        elif isinstance(module, (nn.Tanh, nn.ReLU)):
            activations.add(type(module).__name__.lower())
        elif not isinstance(module, (nn.Sequential, nn.Flatten, nn.Identity)) and \
                next(module.children(), None) is None:
            raise InvalidConfigError(f"cannot export a policy with a {type(module).__name__} "
                                     "layer: only dense layers with tanh or relu are exported")
    if len(activations) > 1:
        raise InvalidConfigError(f"cannot export a policy mixing activations {activations}")
    activation = activations.pop() if activations else "tanh"
    assert activation in ACTIVATIONS
    return layers, activation


def policy_network(model: Any) -> PolicyNetwork:
    """The policy of a MaskablePPO model as a numpy `PolicyNetwork` (float32: it computes what
    the torch policy does, to rounding)."""
    layers, activation = policy_layers(model)
    about = {"game": "", "players": 0, "observation_size": layers[0][0].shape[0],
             "num_actions": layers[-1][0].shape[1], "activation": activation}
    return PolicyNetwork.from_layers(layers, about)

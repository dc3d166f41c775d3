"""The learned policy improved by rollouts of itself: `learned:search`.

At each decision with a choice, the policy's `width` likeliest legal actions are compared. For
each of `samples` states consistent with what the player knows (`view.determinize`), every
candidate is played and the game is finished by the policy itself at every seat, its moves
sampled from its masked softmax; the candidate that wins most of its games is played. Equal win
counts are split by the mean final margin (the player's score minus the best other score, or in
the Alpujarras solo game its progress against Zara: `shaping_potential`), then by the policy's
preference. The margin matters where the policy rarely wins (against Zara, or a strong
position): without it every candidate would tie at no wins. All rollouts of a decision step in
lockstep, so each round of moves is one batched forward pass of the network.

Why: a policy trained by self-play judges a move by its first impression; playing the moves out
(a rollout algorithm in Bertsekas' sense, with the learned policy as the base policy) improves
on the policy it simulates, with no hand-written knowledge: nothing of the heuristic is used.
The candidates compared share the sampled states (paired comparisons, which cancel most of the
luck of the deal).
"""

from __future__ import annotations

import numpy as np

from huerta.envs.core.view import PlayerView

from .mcts import resolve_chance

DEFAULT_WIDTH = 4  # candidates compared: the policy's likeliest legal actions
DEFAULT_SAMPLES = 6  # determinized states per decision, each played out once per candidate


def best_by_rollouts(network, observation: dict[str, np.ndarray], view: PlayerView,
                     rng: np.random.Generator, width: int = DEFAULT_WIDTH,
                     samples: int = DEFAULT_SAMPLES) -> int:
    """The action `network` (a `PolicyNetwork`) plays at this decision after rollouts (see the
    module docstring)."""
    mask = np.asarray(observation["action_mask"], dtype=bool)
    legal = np.flatnonzero(mask)
    logits = network.logits(observation["observation"])
    if len(legal) == 1:
        return int(legal[0])
    candidates = legal[np.argsort(-logits[legal], kind="stable")][:width]
    me = view.player
    states, owners = [], []
    for _ in range(samples):
        base = view.determinize(rng)
        for k, action in enumerate(candidates):
            state = base.clone()
            state.apply(int(action))
            states.append(state)
            owners.append(k)
    alive = list(range(len(states)))
    while alive:
        for i in alive:
            resolve_chance(states[i], rng)
        alive = [i for i in alive if not states[i].is_terminal]
        if not alive:
            break
        observations = np.stack([states[i].observe(states[i].current_player) for i in alive])
        masks = np.stack([states[i].legal_mask() for i in alive]).astype(bool)
        for i, action in zip(alive, network.sample(observations, masks, rng), strict=True):
            states[i].apply(int(action))
    wins = np.zeros(len(candidates))
    margins = np.zeros(len(candidates))
    for state, k in zip(states, owners, strict=True):
        winners = state.winners()
        if me in winners:
            wins[k] += 1.0 / len(winners)
        margins[k] += state.shaping_potential(me)
    # most wins, then the best margin, then the likelier candidate (lexsort's last key is first)
    best = np.lexsort((np.arange(len(candidates)), -margins, -wins))[0]
    return int(candidates[best])

"""The training methods, each behind the `Method` interface (base.py), and their one dispatcher
(dispatch.py: `train`), which nothing here imports back.

    base.py        the `Method` protocol: what a method takes and what it leaves in the folder
    dispatch.py    `train(config, resume, force)`: claims or resumes the folder, runs a method
    ppo.py         MaskablePPO self-play (its callbacks, checkpoints, evaluation)
    imitation.py   PPO's warm start: the heuristic imitated before self-play
    afterstate.py  a value learned from the heuristic's games, for its one-turn search
    cem.py         the solo heuristic's value constants by the cross-entropy method
    rllib.py       PPO on Ray RLlib (`huerta.training.rllib`)
    export.py      a run's best model as best_policy.npz (`huerta export`)
    report.py      the lines a run prints
"""

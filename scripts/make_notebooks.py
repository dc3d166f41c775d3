"""Write the notebooks under notebooks/ from the cells below (outputs stripped).

    python scripts/make_notebooks.py

CI executes every notebook (pytest --nbmake notebooks) with the small budgets set here.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

NOTEBOOKS = {
    "quickstart.ipynb": [
        new_markdown_cell(
            "# huerta quickstart\n\nMake each environment, play a random game, look at the "
            "board. Every game is a PettingZoo AEC environment with an exact action mask."
        ),
        new_code_cell(
            "import numpy as np\n"
            "import huerta.envs  # registers the Gymnasium ids\n"
            "from huerta.envs.core.registry import game_names, get_game\n"
            "game_names()"
        ),
        new_code_cell(
            "import importlib\n\n"
            "def random_game(game, players, seed=0):\n"
            "    env = importlib.import_module(f'huerta.envs.{game}_v0').env(num_players=players)\n"
            "    env.reset(seed=seed)\n"
            "    rng = np.random.default_rng(seed)\n"
            "    for agent in env.agent_iter():\n"
            "        obs, reward, terminated, truncated, info = env.last()\n"
            "        if terminated or truncated:\n"
            "            env.step(None)\n"
            "            continue\n"
            "        env.step(int(rng.choice(np.flatnonzero(obs['action_mask']))))\n"
            "    return env, info\n\n"
            "for game in game_names():\n"
            "    for players in get_game(game).player_counts:\n"
            "        env, info = random_game(game, players)\n"
            "        print(game, players, 'players: scores', info['scores'], "
            "'steps', env.unwrapped.game.steps)"
        ),
        new_markdown_cell("The final position of a Finca game, as text and as a picture:"),
        new_code_cell(
            "env, info = random_game('finca', 3, seed=1)\n"
            "print(env.unwrapped.game.render_text())"
        ),
        new_code_cell(
            "import matplotlib.pyplot as plt\n"
            "picture = env.unwrapped.game.render_rgb()\n"
            "plt.figure(figsize=(12, 8)); plt.imshow(picture); plt.axis('off');"
        ),
        new_markdown_cell(
            "The single-agent Gymnasium view, as MaskablePPO sees it: the learner's seat is "
            "drawn per episode, opponents play inside `step()`."
        ),
        new_code_cell(
            "import gymnasium\n"
            "env = gymnasium.make('huerta/Finca-v0', num_players=2, opponents='heuristic')\n"
            "obs, info = env.reset(seed=0)\n"
            "done, total = False, 0.0\n"
            "rng = np.random.default_rng(0)\n"
            "while not done:\n"
            "    mask = env.unwrapped.action_masks()\n"
            "    obs, reward, terminated, truncated, info = env.step("
            "int(rng.choice(np.flatnonzero(mask))))\n"
            "    total += reward\n"
            "    done = terminated or truncated\n"
            "print('learner seat', info['learner_seat'], 'reward', total, 'scores', "
            "info['scores'])"
        ),
    ],
    "evaluation.ipynb": [
        new_markdown_cell(
            "# Evaluating agents\n\nA round-robin tournament of the baselines: seats rotated, "
            "paired deals, win rates with 95% intervals and openskill ratings."
        ),
        new_code_cell(
            "from huerta.training.evaluation.tournament import run_tournament\n"
            "from huerta.training.evaluation.tournament_table import format_results\n"
            "result = run_tournament('finca', ['random', 'heuristic', 'mcts:20'], players=2, "
            "games=6, seed=0)\n"
            "print(format_results(result))"
        ),
        new_code_cell(
            "from pathlib import Path\n"
            "from huerta.training.evaluation.plots import plot_tournament\n"
            "from IPython.display import Image\n"
            "path = plot_tournament(result, Path('runs/notebook_eval/tournament.png'))\n"
            "Image(filename=str(path))"
        ),
        new_markdown_cell("Every game is stored with its record; replay one as a transcript:"),
        new_code_cell(
            "from huerta.envs.core.records import GameRecord\n"
            "from huerta.envs.core.transcript import transcript\n"
            "record = GameRecord.from_dict(result.games[0]['record'])\n"
            "print(transcript(record)[:1500])"
        ),
    ],
    "training.ipynb": [
        new_markdown_cell(
            "# Self-play training\n\nA tiny MaskablePPO run (seconds, not minutes: raise "
            "`steps` and `imitation_games` for a real one, or use `huerta train finca`). It "
            "first imitates 20 of the heuristic's games (the default is 2,000), then the learner "
            "plays against a pool of its own snapshots, the heuristic and random."
        ),
        new_code_cell(
            "import shutil\n"
            "from huerta.training.config import TrainConfig\n"
            "from huerta.training.methods.dispatch import train\n"
            "from huerta.training.runs import read_eval\n"
            "shutil.rmtree('runs/notebook_train', ignore_errors=True)\n"
            "config = TrainConfig(game='finca', method='ppo', players=2, steps=2048, envs=1,\n"
            "                     n_steps=256, batch_size=128, n_epochs=2, eval_every=1024,\n"
            "                     eval_games=4, snapshot_every=1024, checkpoint_every=1024,\n"
            "                     imitation_games=20, imitation_epochs=2, progress=False,\n"
            "                     out='runs/notebook_train')\n"
            "run = train(config)\n"
            "read_eval(run)"
        ),
        new_code_cell(
            "from IPython.display import Image\n"
            "Image(filename=str(run / 'learning_curve.png'))"
        ),
        new_markdown_cell("The trained model plays as the agent `ppo:PATH`:"),
        new_code_cell(
            "from huerta.training.evaluation.tournament import run_tournament\n"
            "from huerta.training.evaluation.tournament_table import format_results\n"
            "result = run_tournament('finca', [f'ppo:{run}', 'random'], players=2, games=4)\n"
            "print(format_results(result))"
        ),
    ],
}


def main() -> None:
    folder = Path(__file__).resolve().parent.parent / "notebooks"
    folder.mkdir(exist_ok=True)
    for name, cells in NOTEBOOKS.items():
        notebook = new_notebook(cells=cells)
        notebook.metadata["kernelspec"] = {
            "name": "python3", "display_name": "Python 3", "language": "python",
        }
        nbformat.write(notebook, folder / name)
        print("wrote", folder / name)


if __name__ == "__main__":
    main()

"""Write a copy of an afterstate value file whose `about` declares the learned search it plays
with (`huerta.agents.learned_search.SearchConfig`), so that `learned:PATH` plays that search.

    python scripts/value_with_search.py finca out.npz '{"base": "afterstate", "leaves": "value"}'

The value file read is the game's shipped 2-player one unless `--value PATH` names another;
the weights are copied unchanged (the shipped files are float16, so the copy is exact).
This is how the measurements of docs/learned-search.md made the variants they compare.
"""

from __future__ import annotations

import argparse
import json

from huerta.agents.afterstate import ValueNetwork
from huerta.agents.learned import shipped_model
from huerta.agents.learned_search import SearchConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("out")
    parser.add_argument("settings", help="JSON: the about['search'] settings ({} for defaults)")
    parser.add_argument("--value", help="the value file to copy (default: the shipped one)")
    args = parser.parse_args()
    network = ValueNetwork.load(args.value or shipped_model(args.game, 2))
    network.about["search"] = json.loads(args.settings)
    SearchConfig.of(args.game, network.about)  # refuse bad settings before writing
    network.save(args.out)
    print(args.out, network.about["search"])


if __name__ == "__main__":
    main()

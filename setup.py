"""Which packages make up `huerta`: the folders envs, agents, training and web, with every
package found inside them, so that a new game's package needs no line of packaging.
Everything else about the project is in pyproject.toml."""

from setuptools import find_packages, setup

# the import name of each top folder
PACKAGE_DIRS = {
    "huerta.envs": "envs",
    "huerta.agents": "agents",
    "huerta.training": "training",
    "huerta.web": "web",
}


def packages() -> list[str]:
    """Each top folder's package and the packages inside it, plus the page's static files (a
    folder of package data without Python)."""
    found = []
    for name, folder in PACKAGE_DIRS.items():
        found += [name, *(f"{name}.{sub}" for sub in find_packages(folder))]
    return [*found, "huerta.web.static"]


setup(packages=packages(), package_dir=PACKAGE_DIRS)

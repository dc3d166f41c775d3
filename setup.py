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


# folders of package data without Python: the page's static files, the shipped learned agents
DATA_PACKAGES = ["huerta.web.static", "huerta.agents.models"]


def packages() -> list[str]:
    """Each top folder's package and the packages inside it, plus the data folders (listed, so
    that setuptools ships them without a warning)."""
    found = []
    for name, folder in PACKAGE_DIRS.items():
        found += [name, *(f"{name}.{sub}" for sub in find_packages(folder))]
    return [*found, *DATA_PACKAGES]


setup(packages=packages(), package_dir=PACKAGE_DIRS)

"""`python -m huerta.training.cli`: the `huerta` command."""

import sys

from . import main

sys.exit(main())

import os

# Oversubscribed BLAS/torch threads made training steps 60x slower on these 2-core machines.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")
# The MiniLM empathy scorer is exercised by its own (slow) tests; elsewhere the lexical
# scorer keeps ticket episodes fast and identical across machines with and without the extra.
os.environ.setdefault("SUPPORTGYM_EMPATHY", "lexical")

import tempfile  # noqa: E402

# The pipeline's critic memory must not leak between test runs through ~/.cache.
os.environ.setdefault("SUPPORTGYM_MEMORY_PATH", os.path.join(tempfile.mkdtemp(prefix="sg-mem-"), "lessons.sqlite"))

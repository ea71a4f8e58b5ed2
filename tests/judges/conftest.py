"""The LLM judge tests use the LLM tests' fixtures (fake API keys in the environment and the
scripted server); importing them also puts tests/llm on sys.path for ``llm_support``."""

from llm.conftest import llm_env, server  # noqa: F401

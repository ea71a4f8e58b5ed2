"""The LLM judge tests use the LLM tests' fixtures (fake API keys in the environment and the
scripted server)."""

from llm.conftest import llm_env, server  # noqa: F401

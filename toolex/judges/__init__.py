"""Judges answer the three annotation questions (decompose, verify, audit).

``make_judge(spec, ...)`` turns a spec string into a judge: ``heuristic`` (offline),
``openai:<model>``, ``anthropic:<model>``, ``compat:<base_url>#<model>`` (vLLM, Ollama,
llama.cpp server). See toolex/judges/base.py for the contract.
"""

"""The durable_rules adapter: rules compiled once, one flat fact set evaluated per call.

durable_rules 2.0.28 has known ways to crash or hang; each is made impossible here:

- *Background threads.* ``durable.engine.Host.__init__`` starts two ``threading.Timer`` loops
  (``_run``: dispatch and timer polling), and ``durable.lang.post`` uses a global host with
  them. ``_QuietHost`` overrides ``_run`` so no thread is ever started, and no rule action goes
  through durable's ``Promise`` machinery (which can arm timers): ``evaluate`` drains the
  agenda itself, inside the caller's thread.
- *Unmatched facts.* A fact no rule matches, followed by deleting its state, can crash the
  engine. A catch-all rule matches every fact the advisor asserts.
- *Leftover state.* Each evaluation uses a fresh session id (``sid``) whose state is deleted
  before ``evaluate`` returns, so nothing accumulates between calls.
- *Cross-fact joins* read uninitialised memory. Exactly one fact is asserted per session and
  every rule tests that single fact (``m``) with conditions on its own fields.
- *The engine's own state document.* durable_rules matches the session state (``{sid, id,
  $s}``) against the rules too; a negative test such as ``$nex`` matches it, and with the
  Python action layer (which writes the state back after every action) fires forever. Every
  rule therefore also requires a marker field that only our facts carry.
- *Exponent notation* in numbers makes the JSON reader fail (error 204): facts and rule values
  are kept in the range Python prints without an exponent (``advisor.rulebase.fact_catalog.scalar``).
- *Threads.* One process-wide lock serialises every call into the engine.
- *Double firing.* An ``any`` (compiled to ``$or``) fires once per branch that holds: fired
  rules are de-duplicated by id.
- *Compiled rulesets are never freed.* durable_rules has no way to drop a ruleset from a host:
  its C ruleset (about 0.5 MB per stage) outlives the Python objects, so every new
  ``RuleEngine`` leaked about 1.4 MB. Each engine frees its three rulesets
  (``delete_ruleset``) when it is closed or collected (``weakref.finalize``), never while an
  evaluation holds it. Not at the interpreter's exit: a worker thread still evaluating then
  (the wizard's live update, a daemon thread) would find its engine closed, and the process's
  end frees the memory anyway.
"""

from __future__ import annotations

import itertools
import json
import threading
import weakref
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import durable_rules_engine
from durable import engine as durable_engine

from advisor.files.records import record
from advisor.rulebase.conditions import to_durable
from advisor.rulebase.fact_catalog import Scalar, check_facts
from advisor.rulebase.model import Rule

MARKER = "advisor_fact_set"  # carried by every fact we assert, required by every rule
CATCH_ALL = "__catch_all__"
STAGES = ("decide", "setup", "findings")
_LOCK = threading.Lock()
_NAMES = itertools.count()


class _QuietHost(durable_engine.Host):
    """A durable_rules host without the dispatch / timer polling threads."""

    def _run(self) -> None:  # overrides the thread-starting polling loop
        return None


def _no_action(c) -> None:
    """Rule actions never run: ``evaluate`` drains the agenda itself (see below)."""
    return None


@record
class Firing:
    """One rule that held: its conclusion (fact references resolved) and the facts it read."""

    rule: Rule
    conclusion: dict[str, Any]
    facts: dict[str, Scalar]


def _action_name(message: str) -> str:
    """The rule name of an agenda entry ``{"<rule id>": {"m": {...}}}`` without parsing the
    fact it carries (rule ids are ``[a-z0-9_.]`` only, so no escaping can occur)."""
    start = message.index('"') + 1
    return message[start:message.index('"', start)]


class RuleEngine:
    """A set of rules compiled into one durable_rules ruleset per stage.

    ``evaluate`` asserts the fact, then drains durable_rules' agenda directly through its C
    API (``start_action_for_state`` / ``complete_and_start_action``), recording each rule id.
    That is what ``durable.engine.Ruleset._flush_actions`` does, minus decoding every agenda
    entry's copy of the fact and writing back an unchanged session state after each action,
    which made up most of its time.
    """

    def __init__(self, rules: Sequence[Rule]) -> None:
        ids = [r.id for r in rules]
        if len(set(ids)) != len(ids):
            raise ValueError("rule ids must be unique")
        self.rules = {r.id: r for r in rules}
        self._host = _QuietHost()
        self._names: dict[str, str] = {}
        self._handles: dict[str, int] = {}
        self._sids = itertools.count()
        with _LOCK:
            for stage in STAGES:
                name = f"gpu_advisor_{stage}_{next(_NAMES)}"
                definition: dict[str, Any] = {
                    CATCH_ALL: {"all": [{"m": {MARKER: 1}}], "run": _no_action}}
                for rule in rules:
                    if rule.stage == stage:
                        expr = {"$and": [{MARKER: 1}, to_durable(rule.when)]}
                        definition[rule.id] = {"all": [{"m": expr}], "run": _no_action}
                self._host.register_rulesets({name: definition})
                self._names[stage] = name
                self._handles[stage] = self._host.get_ruleset(name)._handle
        self._release = weakref.finalize(self, _delete_rulesets, tuple(self._handles.values()))
        self._release.atexit = False  # see the module: threads may still evaluate at exit

    def close(self) -> None:
        """Free the compiled rulesets now (also done when the engine is collected)."""
        self._release()

    def __enter__(self) -> RuleEngine:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def evaluate(self, facts: Mapping[str, Any], stage: str = "decide") -> list[Firing]:
        """Rules of ``stage`` that hold for ``facts``, each once, in rule-id order."""
        if not self._release.alive:
            raise RuntimeError("this RuleEngine was closed")
        clean = check_facts(facts)
        handle = self._handles[stage]
        fired: set[str] = set()
        with _LOCK:
            sid = f"s{next(self._sids)}"
            message = json.dumps({**clean, MARKER: 1, "sid": sid}, ensure_ascii=False)
            try:
                code, state = durable_rules_engine.assert_fact(handle, message)
                if code != 0:  # 1 not handled, 2 already observed: impossible by construction
                    raise RuntimeError(f"durable_rules refused the fact set (code {code})")
                entry = durable_rules_engine.start_action_for_state(handle, state)
                pending = entry[1] if entry else None
                while pending:
                    fired.add(_action_name(pending))
                    pending = durable_rules_engine.complete_and_start_action(handle, state)
            finally:
                try:
                    durable_rules_engine.delete_state(handle, sid)
                except durable_rules_engine.error:  # no state was created (assert refused)
                    pass
        fired.discard(CATCH_ALL)
        return [Firing(self.rules[rid], self.rules[rid].conclusion(clean),
                       self.rules[rid].matched_facts(clean)) for rid in sorted(fired)]


def _delete_rulesets(handles: tuple[int, ...]) -> None:
    with _LOCK:
        for handle in handles:
            try:
                durable_rules_engine.delete_ruleset(handle)
            except durable_rules_engine.error:  # already gone: nothing to free
                pass


@cache
def default_engine() -> RuleEngine:
    """The project's rule base (``rules/*.yaml``), compiled once per process."""
    from advisor.rulebase import default_rules

    return RuleEngine(default_rules())

"""Calibration constants and every verbatim text of the todo model
(docs/todo-gates.md#the-calibration-constants-and-the-secrecy-rule).

The calibration numbers are private: they are compared against, never interpolated into text an
agent can read (the secrecy test in tests/todo enforces it).
"""

from __future__ import annotations

TOOL_NAME = "todo"
TOOL_LABEL = "Todo"
COMMAND = "todos"
DESCRIPTION = "Show the todo list; export or clear it; control the auto-poke cycle"

STATE_CUSTOM_TYPE = "pi-jtodo/state"
CYCLE_CUSTOM_TYPE = "pi-jtodo/cycle"
FOLLOWUP_CUSTOM_TYPE = "pi-jtodo/followup"
SCHEMA_VERSION = 1

QUALITY_BAR = 96  # completion confidence, ownership, closed loop and intent
SEVERE_INTENT = 60  # first plan write below this gets an in-band nudge
CONFIDENCE_SPIKE = 15  # a final history jump of at least this is a spike

FOLLOWUP_KINDS = ("poke", "digest", "completion", "spike", "nudge", "watchdog")

# Model-visible texts (verbatim jcode via pi-jtodo).
INTENT_CONTINUATION = (
    "Your understanding of the user's intent is not high enough. Re-read the request and think "
    "harder about what the user actually wants and left implicit, using the conversation and "
    "codebase as evidence. Do not ask the user; resolve the ambiguity yourself, then update the "
    "plan's user intention and understands_user_intent."
)
OWNERSHIP_CONTINUATION = (
    "Your end-to-end ownership is not high enough to complete this goal. Take ownership of the "
    "full user outcome, not just the immediate implementation. Follow the work through every "
    "relevant integration and runtime path, resolve consequential gaps, validate the complete "
    "workflow, and finish the necessary follow-through. Then call the todo tool again, setting a "
    "higher `end_to_end_ownership` on the goal for this group; until that field is raised the "
    "write is rejected and the stored todo list is left unchanged."
)
COMPLETION_CONTINUATION = (
    "[automated todo completion gate - not a user message] Your completion confidence is missing "
    "or not high enough. Do not reply conversationally or wait for the user. Instead: Validate the "
    "completed result more thoroughly with concrete evidence, address any remaining issues, then "
    "call the todo tool again with updated completion_confidence values that reflect the "
    "validation you performed."
)
SPIKE_CONTINUATION = (
    "[automated todo completion gate - not a user message] Your completion confidence rose too "
    "sharply to count as independently validated. Do not reply conversationally or wait for the "
    "user. Instead: recheck the completed result using concrete evidence, address any issues you "
    "find, then call the todo tool again with completion_confidence values that reflect the "
    "validation you performed."
)
DIGEST_PREFIX = (
    "[automated todo quality review - not a user message] Before you treat this turn as "
    "finished, double-check the weak points it surfaced. Do not reply conversationally or wait "
    "for the user."
)
DIGEST_FOOTER = (
    "Address the points above, then update the todo tool with the assessments that reflect what "
    "you verified."
)
DIGEST_INTENT_OPEN = (
    "your understanding of what the user actually wants never became solid. Re-read the request, "
    "confirm the work you did matches it, and state any interpretation you had to guess at."
)
DIGEST_INTENT_CLEARED = (
    "you started this work without understanding what the user actually wants, and only settled "
    "it later. Re-check the work you did before it settled against the request you now "
    "understand, and state any interpretation you had to guess at."
)
DIGEST_LOOP_OPEN = (
    "the goal{label} never closed its feedback loop: no observation reported back on whether the "
    "work satisfied the requirements. Confirm the result is actually better, with concrete "
    "evidence rather than inspection."
)
DIGEST_LOOP_CLEARED = (
    "the goal{label} was worked on before its feedback loop was closed, so the loop you ended up "
    "with never ran over that earlier work. Run it over the whole result now and report what it "
    "actually reported back."
)
COMPLETION_TAKEN_TOGETHER = (
    "- Taken together the completed work is not validated strongly enough yet: re-verify the "
    "finished todos with concrete evidence."
)
COMPLETION_MISSING = "- No completion_confidence was recorded for: {names}."
COMPLETION_WEAK = "- The recorded completion_confidence is not strong enough for: {names}."
SPIKE_NAMES = "- Recheck the confidence jump on: {names}."
POKE_TEXT = "You have {n} incomplete todo{s}. Continue working, or update the todo tool."
NUDGE_TEXT = (
    "[automated todo reminder - not a user message] You have been working for a while without "
    "updating the todo tool. Update it so the list reflects what is done and what remains, then "
    "continue."
)
DISABLED_ERROR = "The todo tool is disabled in the pideck configuration ([todo] enabled = false)."

# Display-only notices (never sent to the model).
NOTICE_POKE_OFF_HINT = "/todos poke off to stop."
NOTICE_DIGEST_QUEUED = "🔎 We asked the agent to double-check this turn's weak points."
NOTICE_COMPLETION_CHALLENGED = (
    "🛑 The agent marked its work done without strong enough validation. We asked it to "
    "double-check."
)
NOTICE_SPIKE_CHALLENGED = (
    "🛑 The agent's confidence jumped suddenly. We asked it to verify that independently."
)
NOTICE_GATE_STALLED = (
    "⚠️ We nudged the agent several times but its validation still isn't holding up. We stopped "
    "poking; review the remaining todos yourself."
)
NOTICE_GATE_UNCHANGED = (
    "⚠️ The agent re-validated but its completion confidence did not move, so further nudges "
    "would only repeat themselves. We stopped poking; review the completed todos yourself. "
    "/todos poke on to resume."
)
NOTICE_POKE = "👉 {n} incomplete todo{s}. We poked it for you. /todos poke off to stop."
NOTICE_DONE = "✅ All todos done. Completion confidence: {label}."
NOTICE_NO_PROGRESS = (
    "⚠️ The agent stopped {n} times in a row without changing its todos. We stopped poking; "
    "review the remaining todos yourself. /todos poke on to resume."
)
NOTICE_HOOK_NO_PROGRESS = (
    "⚠️ The agent stopped again after a Stop hook sent it back, without changing its todos. We "
    "stopped poking; review the remaining todos yourself. /todos poke on to resume."
)
NOTICE_WATCHDOG_STOPPED = (
    "⚠️ The agent stayed idle after {n} re-pokes with todos still open. We stopped poking; "
    "review the remaining todos yourself. /todos poke on to resume."
)
RESTORE_WARNING = (
    "pi-jtodo: the newest saved todo state is invalid; starting with an empty todo list."
)


def plural_s(n: int) -> str:
    return "" if n == 1 else "s"

/**
 * The system prompts of the orchestrator and of the single-agent baseline. They describe the
 * tools; they never ask for parallelism.
 *
 * @module
 */

/** The orchestrator's system prompt (it describes the tools; it never asks for parallelism). */
export const ORCHESTRATOR_SYSTEM_PROMPT =
  'You solve the user\'s task. You can use the task\'s tools yourself, and you can define sub-agents with create_subagent ' +
  'and give them work with assign_task; each assign_task returns that sub-agent\'s final message. ' +
  'When you have the answer, reply with it and call no tool.';

/** The single agent's system prompt (the baseline without sub-agents). */
export const SINGLE_AGENT_SYSTEM_PROMPT = 'You solve the user\'s task with the task\'s tools. When you have the answer, reply with it and call no tool.';

/**
 * The queue's default name.
 *
 * @module
 */

/**
 * The queue `parl sweep --queue`, `parl swarm run --queue` and `parl worker` use unless
 * `--queue-name` says otherwise: one queue, whose jobs a worker tells apart by their names.
 */
export const DEFAULT_QUEUE_NAME = 'parl-sweep';

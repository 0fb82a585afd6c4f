/**
 * Gradient registration. The Node build of `@tensorflow/tfjs-core` ships no gradient functions
 * (`@tensorflow/tfjs` registers them in the browser bundle and in tfjs-node), so `tf.grad` fails
 * with "gradient function not found" when only tfjs-core and a backend are installed. This module
 * registers tfjs-core's own gradient configs for every kernel the PARL ops use (plus a few common
 * loss ops), each only when no gradient is registered for it yet. tsup bundles these configs
 * from `@tensorflow/tfjs-core/dist/gradients/` (they are not loadable by Node directly).
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { addGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Add_grad.js';
import { addNGradConfig } from '@tensorflow/tfjs-core/dist/gradients/AddN_grad.js';
import { subGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sub_grad.js';
import { multiplyGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Multiply_grad.js';
import { divGradConfig } from '@tensorflow/tfjs-core/dist/gradients/RealDiv_grad.js';
import { negGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Neg_grad.js';
import { squareGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Square_grad.js';
import { squaredDifferenceGradConfig } from '@tensorflow/tfjs-core/dist/gradients/SquaredDifference_grad.js';
import { meanGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Mean_grad.js';
import { sumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sum_grad.js';
import { maxGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Max_grad.js';
import { maximumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Maximum_grad.js';
import { minimumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Minimum_grad.js';
import { clipByValueGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ClipByValue_grad.js';
import { selectGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Select_grad.js';
import { expGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Exp_grad.js';
import { logGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Log_grad.js';
import { log1pGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Log1p_grad.js';
import { reshapeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Reshape_grad.js';
import { expandDimsGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ExpandDims_grad.js';
import { identityGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Identity_grad.js';
import { castGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Cast_grad.js';
import { zerosLikeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ZerosLike_grad.js';
import { onesLikeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/OnesLike_grad.js';
import { broadcastToGradConfig } from '@tensorflow/tfjs-core/dist/gradients/BroadcastTo_grad.js';
import { batchMatMulGradConfig } from '@tensorflow/tfjs-core/dist/gradients/BatchMatMul_grad.js';
import { tileGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Tile_grad.js';

/** The gradient configs @parl/gpu registers, as shipped by tfjs-core 4.22.0. */
const GRADIENTS: readonly tf.GradConfig[] = [
  addGradConfig,
  addNGradConfig,
  subGradConfig,
  multiplyGradConfig,
  divGradConfig,
  negGradConfig,
  squareGradConfig,
  squaredDifferenceGradConfig,
  meanGradConfig,
  sumGradConfig,
  maxGradConfig,
  maximumGradConfig,
  minimumGradConfig,
  clipByValueGradConfig,
  selectGradConfig,
  expGradConfig,
  logGradConfig,
  log1pGradConfig,
  reshapeGradConfig,
  expandDimsGradConfig,
  identityGradConfig,
  castGradConfig,
  zerosLikeGradConfig,
  onesLikeGradConfig,
  broadcastToGradConfig,
  tileGradConfig,
  batchMatMulGradConfig,
];

/**
 * Register the gradients of the kernels the PARL ops use, where none is registered yet (tfjs-node
 * registers its own; those are kept). Idempotent; called when @parl/gpu is imported.
 *
 * @returns the kernel names registered by this call
 */
export function registerParlGradients(): string[] {
  const added: string[] = [];
  for (const config of GRADIENTS) {
    if (tf.getGradient(config.kernelName) === undefined) {
      tf.registerGradient(config);
      added.push(config.kernelName);
    }
  }
  return added;
}

/** The kernels whose gradients {@link registerParlGradients} provides. */
export const PARL_GRADIENT_KERNELS: readonly string[] = GRADIENTS.map((g) => g.kernelName);

registerParlGradients();

/**
 * `test(x)` (an element-wise comparison, same shape as `x`) as a tensor the gradient tape sees
 * as constant: tfjs has no gradient for comparisons, so a comparison on a value being
 * differentiated would otherwise make `tf.grad` fail.
 */
export function constantComparison(x: tf.Tensor, test: (x: tf.Tensor) => tf.Tensor): tf.Tensor {
  const f = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => ({
    value: test(args[0] as tf.Tensor),
    gradFunc: (dy: tf.Tensor) => tf.zerosLike(args[0] as tf.Tensor),
  }));
  return f(x);
}

/**
 * Gradient registration. The Node build of `@tensorflow/tfjs-core` ships no gradient functions
 * (`@tensorflow/tfjs` registers them in its bundles, and tfjs-node loads it), so with only
 * tfjs-core and a backend installed `tf.grad` fails with "gradient function not found". This
 * module registers every gradient config tfjs-core 4.22.0 ships, each only when no gradient is
 * registered for its kernel yet, so that the PARL ops — and models that dependents build with the
 * exported `tf` (matMul, tanh, softmax, …) — can be differentiated. tsup bundles these configs
 * from `@tensorflow/tfjs-core/dist/gradients/` (Node cannot load those ES-module files itself).
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { absGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Abs_grad.js';
import { acosGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Acos_grad.js';
import { acoshGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Acosh_grad.js';
import { addNGradConfig } from '@tensorflow/tfjs-core/dist/gradients/AddN_grad.js';
import { addGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Add_grad.js';
import { argMaxGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ArgMax_grad.js';
import { argMinGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ArgMin_grad.js';
import { asinGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Asin_grad.js';
import { asinhGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Asinh_grad.js';
import { atan2GradConfig } from '@tensorflow/tfjs-core/dist/gradients/Atan2_grad.js';
import { atanGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Atan_grad.js';
import { atanhGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Atanh_grad.js';
import { avgPool3DGradConfig } from '@tensorflow/tfjs-core/dist/gradients/AvgPool3D_grad.js';
import { avgPoolGradConfig } from '@tensorflow/tfjs-core/dist/gradients/AvgPool_grad.js';
import { batchMatMulGradConfig } from '@tensorflow/tfjs-core/dist/gradients/BatchMatMul_grad.js';
import { batchToSpaceNDGradConfig } from '@tensorflow/tfjs-core/dist/gradients/BatchToSpaceND_grad.js';
import { broadcastToGradConfig } from '@tensorflow/tfjs-core/dist/gradients/BroadcastTo_grad.js';
import { castGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Cast_grad.js';
import { ceilGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Ceil_grad.js';
import { clipByValueGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ClipByValue_grad.js';
import { complexAbsGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ComplexAbs_grad.js';
import { concatGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Concat_grad.js';
import { conv2DBackpropInputGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Conv2DBackpropInput_grad.js';
import { conv2DGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Conv2D_grad.js';
import { conv3DGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Conv3D_grad.js';
import { cosGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Cos_grad.js';
import { coshGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Cosh_grad.js';
import { cumsumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Cumsum_grad.js';
import { depthwiseConv2dNativeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/DepthwiseConv2dNative_grad.js';
import { dilation2dGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Dilation2D_grad.js';
import { eluGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Elu_grad.js';
import { erfGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Erf_grad.js';
import { expGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Exp_grad.js';
import { expandDimsGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ExpandDims_grad.js';
import { expm1GradConfig } from '@tensorflow/tfjs-core/dist/gradients/Expm1_grad.js';
import { floorDivGradConfig } from '@tensorflow/tfjs-core/dist/gradients/FloorDiv_grad.js';
import { floorGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Floor_grad.js';
import { fusedBatchNormGradConfig } from '@tensorflow/tfjs-core/dist/gradients/FusedBatchNorm_grad.js';
import { gatherGradConfig } from '@tensorflow/tfjs-core/dist/gradients/GatherV2_grad.js';
import { greaterEqualGradConfig } from '@tensorflow/tfjs-core/dist/gradients/GreaterEqual_grad.js';
import { identityGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Identity_grad.js';
import { isFiniteGradConfig } from '@tensorflow/tfjs-core/dist/gradients/IsFinite_grad.js';
import { isInfGradConfig } from '@tensorflow/tfjs-core/dist/gradients/IsInf_grad.js';
import { isNanGradConfig } from '@tensorflow/tfjs-core/dist/gradients/IsNan_grad.js';
import { lrnGradConfig } from '@tensorflow/tfjs-core/dist/gradients/LRN_grad.js';
import { leakyReluGradConfig } from '@tensorflow/tfjs-core/dist/gradients/LeakyRelu_grad.js';
import { log1pGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Log1p_grad.js';
import { logSoftmaxGradConfig } from '@tensorflow/tfjs-core/dist/gradients/LogSoftmax_grad.js';
import { logGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Log_grad.js';
import { maxPool3DGradConfig } from '@tensorflow/tfjs-core/dist/gradients/MaxPool3D_grad.js';
import { maxPoolGradConfig } from '@tensorflow/tfjs-core/dist/gradients/MaxPool_grad.js';
import { maxGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Max_grad.js';
import { maximumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Maximum_grad.js';
import { meanGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Mean_grad.js';
import { minGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Min_grad.js';
import { minimumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Minimum_grad.js';
import { mirrorPadGradConfig } from '@tensorflow/tfjs-core/dist/gradients/MirrorPad_grad.js';
import { modGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Mod_grad.js';
import { multiplyGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Multiply_grad.js';
import { negGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Neg_grad.js';
import { oneHotGradConfig } from '@tensorflow/tfjs-core/dist/gradients/OneHot_grad.js';
import { onesLikeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/OnesLike_grad.js';
import { packGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Pack_grad.js';
import { padV2GradConfig } from '@tensorflow/tfjs-core/dist/gradients/PadV2_grad.js';
import { powGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Pow_grad.js';
import { preluGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Prelu_grad.js';
import { prodGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Prod_grad.js';
import { divGradConfig } from '@tensorflow/tfjs-core/dist/gradients/RealDiv_grad.js';
import { reciprocalGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Reciprocal_grad.js';
import { relu6GradConfig } from '@tensorflow/tfjs-core/dist/gradients/Relu6_grad.js';
import { reluGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Relu_grad.js';
import { reshapeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Reshape_grad.js';
import { resizeBilinearGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ResizeBilinear_grad.js';
import { resizeNearestNeighborGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ResizeNearestNeighbor_grad.js';
import { reverseGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Reverse_grad.js';
import { roundGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Round_grad.js';
import { rsqrtGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Rsqrt_grad.js';
import { selectGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Select_grad.js';
import { seluGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Selu_grad.js';
import { sigmoidGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sigmoid_grad.js';
import { signGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sign_grad.js';
import { sinGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sin_grad.js';
import { sinhGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sinh_grad.js';
import { sliceGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Slice_grad.js';
import { softmaxGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Softmax_grad.js';
import { softplusGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Softplus_grad.js';
import { spaceToBatchNDGradConfig } from '@tensorflow/tfjs-core/dist/gradients/SpaceToBatchND_grad.js';
import { splitVGradConfig } from '@tensorflow/tfjs-core/dist/gradients/SplitV_grad.js';
import { sqrtGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sqrt_grad.js';
import { squareGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Square_grad.js';
import { squaredDifferenceGradConfig } from '@tensorflow/tfjs-core/dist/gradients/SquaredDifference_grad.js';
import { stepGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Step_grad.js';
import { subGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sub_grad.js';
import { sumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Sum_grad.js';
import { tanGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Tan_grad.js';
import { tanhGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Tanh_grad.js';
import { tileGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Tile_grad.js';
import { transposeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Transpose_grad.js';
import { unpackGradConfig } from '@tensorflow/tfjs-core/dist/gradients/Unpack_grad.js';
import { unsortedSegmentSumGradConfig } from '@tensorflow/tfjs-core/dist/gradients/UnsortedSegmentSum_grad.js';
import { zerosLikeGradConfig } from '@tensorflow/tfjs-core/dist/gradients/ZerosLike_grad.js';

/** Every gradient config tfjs-core 4.22.0 ships (its `dist/gradients/*_grad.js`). */
const GRADIENTS: readonly tf.GradConfig[] = [
  absGradConfig,
  acosGradConfig,
  acoshGradConfig,
  addNGradConfig,
  addGradConfig,
  argMaxGradConfig,
  argMinGradConfig,
  asinGradConfig,
  asinhGradConfig,
  atan2GradConfig,
  atanGradConfig,
  atanhGradConfig,
  avgPool3DGradConfig,
  avgPoolGradConfig,
  batchMatMulGradConfig,
  batchToSpaceNDGradConfig,
  broadcastToGradConfig,
  castGradConfig,
  ceilGradConfig,
  clipByValueGradConfig,
  complexAbsGradConfig,
  concatGradConfig,
  conv2DBackpropInputGradConfig,
  conv2DGradConfig,
  conv3DGradConfig,
  cosGradConfig,
  coshGradConfig,
  cumsumGradConfig,
  depthwiseConv2dNativeGradConfig,
  dilation2dGradConfig,
  eluGradConfig,
  erfGradConfig,
  expGradConfig,
  expandDimsGradConfig,
  expm1GradConfig,
  floorDivGradConfig,
  floorGradConfig,
  fusedBatchNormGradConfig,
  gatherGradConfig,
  greaterEqualGradConfig,
  identityGradConfig,
  isFiniteGradConfig,
  isInfGradConfig,
  isNanGradConfig,
  lrnGradConfig,
  leakyReluGradConfig,
  log1pGradConfig,
  logSoftmaxGradConfig,
  logGradConfig,
  maxPool3DGradConfig,
  maxPoolGradConfig,
  maxGradConfig,
  maximumGradConfig,
  meanGradConfig,
  minGradConfig,
  minimumGradConfig,
  mirrorPadGradConfig,
  modGradConfig,
  multiplyGradConfig,
  negGradConfig,
  oneHotGradConfig,
  onesLikeGradConfig,
  packGradConfig,
  padV2GradConfig,
  powGradConfig,
  preluGradConfig,
  prodGradConfig,
  divGradConfig,
  reciprocalGradConfig,
  relu6GradConfig,
  reluGradConfig,
  reshapeGradConfig,
  resizeBilinearGradConfig,
  resizeNearestNeighborGradConfig,
  reverseGradConfig,
  roundGradConfig,
  rsqrtGradConfig,
  selectGradConfig,
  seluGradConfig,
  sigmoidGradConfig,
  signGradConfig,
  sinGradConfig,
  sinhGradConfig,
  sliceGradConfig,
  softmaxGradConfig,
  softplusGradConfig,
  spaceToBatchNDGradConfig,
  splitVGradConfig,
  sqrtGradConfig,
  squareGradConfig,
  squaredDifferenceGradConfig,
  stepGradConfig,
  subGradConfig,
  sumGradConfig,
  tanGradConfig,
  tanhGradConfig,
  tileGradConfig,
  transposeGradConfig,
  unpackGradConfig,
  unsortedSegmentSumGradConfig,
  zerosLikeGradConfig,
];

/**
 * Register tfjs-core's gradient configs for every kernel that has none registered yet (tfjs-node
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

/**
 * One dense layer of the policy network as a single tfjs operation with its gradient written out,
 * for training. The WebAssembly backend runs a plain matrix product through XNNPACK but a product
 * with a transposed operand (what tfjs's own `matMul` gradient computes) through a slow generic
 * loop, and its `tanh` kernel is several times slower than its `sigmoid`: here the transposes are
 * explicit, tanh(z) is computed as 2·σ(2z) − 1 with the sigmoid fused into the product, and the
 * input gradient is skipped for the network's input (the features are constants). The tests check the gradient against finite
 * differences.
 *
 * @module
 */
import { tf } from '@parl/gpu';

/**
 * `x · weights + bias`, through tanh when `hidden`, with its gradient (call inside `tf.tidy` or a
 * gradient function). The forward pass is one fused product-plus-bias (with the sigmoid of
 * tanh(z) = 2·σ(2z) − 1 fused in for a hidden layer); the bias gradient is a product with a row of
 * ones.
 *
 * @param x - inputs `[n, fanIn]`
 * @param weights - `[fanIn, fanOut]`
 * @param bias - `[fanOut]`
 * @param hidden - apply tanh (a hidden layer) or not (the output layer)
 * @param inputGradient - compute the gradient with respect to `x` (false for the network's input: zeros are returned)
 */
export function denseLayer(x: tf.Tensor2D, weights: tf.Tensor2D, bias: tf.Tensor1D, hidden: boolean, inputGradient: boolean): tf.Tensor2D {
  const op = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [input, w, b] = args as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D];
    const save = args[3] as tf.GradSaveFunc;
    const y = hidden
      ? (tf.sub(tf.mul(tf.fused.matMul({ a: input, b: tf.mul(w, 2), bias: tf.mul(b, 2), activation: 'sigmoid' }), 2), 1) as tf.Tensor2D)
      : tf.fused.matMul({ a: input, b: w, bias: b });
    save([input, w, y]);
    return {
      value: y,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [xs, ws, ys] = saved as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
        const n = xs.shape[0];
        const dz = hidden ? (tf.mul(dy, tf.sub(1, tf.square(ys))) as tf.Tensor2D) : (dy as tf.Tensor2D);
        const dw = tf.matMul(tf.transpose(xs), dz);
        const db = tf.reshape(tf.matMul(tf.ones([1, n]), dz), [ws.shape[1]]);
        const dx = inputGradient ? tf.matMul(dz, tf.transpose(ws)) : tf.zerosLike(xs);
        return [dx, dw, db];
      },
    };
  });
  return op(x, weights, bias) as tf.Tensor2D;
}

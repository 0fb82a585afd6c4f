/**
 * The policy network's forward pass on the host, for acting: tanh hidden layers and a linear
 * output layer over plain typed arrays. Acting runs one small forward pass per decision step, where
 * a TensorFlow.js call costs more in dispatch and read-back than the arithmetic; training still
 * differentiates the same network with TensorFlow.js (`MlpPolicy.logProb`).
 *
 * @module
 */

/** One dense layer: `weights` `[fanIn, fanOut]` row-major and `bias` `[fanOut]`. */
export interface DenseLayer {
  /** Inputs. */
  readonly fanIn: number;
  /** Outputs. */
  readonly fanOut: number;
  /** `[fanIn, fanOut]`, row-major. */
  readonly weights: Float32Array;
  /** `[fanOut]`. */
  readonly bias: Float32Array;
  /** `weights` transposed, `[fanOut, fanIn]` (built on first use): each output's weights side by side. */
  transposed?: Float64Array;
}

function transposedOf(layer: DenseLayer): Float64Array {
  if (layer.transposed === undefined) {
    const { fanIn, fanOut, weights } = layer;
    const t = new Float64Array(fanIn * fanOut);
    for (let i = 0; i < fanIn; i++) for (let j = 0; j < fanOut; j++) t[j * fanIn + i] = weights[i * fanOut + j] as number;
    layer.transposed = t;
  }
  return layer.transposed;
}

/**
 * Network outputs for `rows` feature rows: `out[r · lastFanOut + j]`. Hidden layers apply tanh,
 * the last layer none. Sums run in double precision and each layer's output is stored as float32,
 * as the network's weights are; `scratch` holds the hidden activations (grown as needed and
 * returned, so a caller can keep it between calls). With `lastOutputs` only the last layer's first
 * `lastOutputs` outputs are computed; {@link denseRowOutputs} computes others for a row later, to
 * the same bits.
 */
export function denseForward(
  layers: readonly DenseLayer[],
  x: Float32Array,
  rows: number,
  out: Float32Array,
  scratch: Float32Array[] = [],
  lastOutputs?: number,
): Float32Array[] {
  let input = x;
  for (let l = 0; l < layers.length; l++) {
    const layer = layers[l] as DenseLayer;
    const { fanIn, fanOut, bias } = layer;
    const weights = transposedOf(layer);
    const last = l + 1 === layers.length;
    const computed = last && lastOutputs !== undefined ? Math.min(lastOutputs, fanOut) : fanOut;
    let target: Float32Array;
    if (last) {
      target = out;
    } else {
      let buf = scratch[l];
      if (buf === undefined || buf.length < rows * fanOut) {
        buf = new Float32Array(rows * fanOut);
        scratch[l] = buf;
      }
      target = buf;
    }
    for (let r = 0; r < rows; r++) {
      const io = r * fanIn;
      const oo = r * fanOut;
      // Four outputs at a time share each input load; every output still sums i = 0, 1, … in order.
      let j = 0;
      for (; j + 4 <= computed; j += 4) {
        const w0 = j * fanIn;
        const w1 = w0 + fanIn;
        const w2 = w1 + fanIn;
        const w3 = w2 + fanIn;
        let z0 = 0;
        let z1 = 0;
        let z2 = 0;
        let z3 = 0;
        for (let i = 0; i < fanIn; i++) {
          const v = input[io + i] as number;
          z0 += v * (weights[w0 + i] as number);
          z1 += v * (weights[w1 + i] as number);
          z2 += v * (weights[w2 + i] as number);
          z3 += v * (weights[w3 + i] as number);
        }
        z0 += bias[j] as number;
        z1 += bias[j + 1] as number;
        z2 += bias[j + 2] as number;
        z3 += bias[j + 3] as number;
        target[oo + j] = last ? z0 : Math.tanh(z0);
        target[oo + j + 1] = last ? z1 : Math.tanh(z1);
        target[oo + j + 2] = last ? z2 : Math.tanh(z2);
        target[oo + j + 3] = last ? z3 : Math.tanh(z3);
      }
      for (; j < computed; j++) {
        let z = 0;
        const wo = j * fanIn;
        for (let i = 0; i < fanIn; i++) z += (input[io + i] as number) * (weights[wo + i] as number);
        z += bias[j] as number;
        target[oo + j] = last ? z : Math.tanh(z);
      }
    }
    input = target;
  }
  return scratch;
}

/**
 * Outputs `from` … `to − 1` of the last layer for row `row`, written to `out[row · fanOut + j]`,
 * from the row's input to that layer (`input[row · fanIn …]`, the last hidden activations that
 * {@link denseForward} left in its scratch): the same sums, in the same order, as
 * {@link denseForward} computes.
 */
export function denseRowOutputs(layer: DenseLayer, input: Float32Array, row: number, from: number, to: number, out: Float32Array): void {
  const { fanIn, fanOut, bias } = layer;
  const weights = transposedOf(layer);
  const io = row * fanIn;
  for (let j = from; j < to; j++) {
    let z = 0;
    const wo = j * fanIn;
    for (let i = 0; i < fanIn; i++) z += (input[io + i] as number) * (weights[wo + i] as number);
    z += bias[j] as number;
    out[row * fanOut + j] = z;
  }
}

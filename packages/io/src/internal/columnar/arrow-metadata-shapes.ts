/**
 * The shapes of the Arrow IPC metadata tables (`Message.fbs`, `Schema.fbs`, `File.fbs` of the
 * Arrow format, version 5), as far as apache-arrow's JavaScript reader reads them: every offset
 * it follows is listed here, so that {@link checkFlatBuffer} holds each one inside the bytes
 * before apache-arrow decodes them.
 *
 * @module
 */
import type { FlatField, FlatTable } from './flatbuffer-check.js';

const u8: FlatField = { kind: 'scalar', size: 1 };
const i16: FlatField = { kind: 'scalar', size: 2 };
const i32: FlatField = { kind: 'scalar', size: 4 };
const i64: FlatField = { kind: 'scalar', size: 8 };
const str: FlatField = { kind: 'string' };

const KEY_VALUE: FlatTable = { name: 'KeyValue', fields: [['key', str], ['value', str]] };
const keyValues: FlatField = { kind: 'tables', shape: () => KEY_VALUE };

/** `Type` union members whose table apache-arrow reads (the others carry no parameters). */
const TYPE_TABLES: ReadonlyMap<number, FlatTable> = new Map<number, FlatTable>([
  [2, { name: 'Int', fields: [['bitWidth', i32], ['is_signed', u8]] }],
  [3, { name: 'FloatingPoint', fields: [['precision', i16]] }],
  [7, { name: 'Decimal', fields: [['precision', i32], ['scale', i32], ['bitWidth', i32]] }],
  [8, { name: 'Date', fields: [['unit', i16]] }],
  [9, { name: 'Time', fields: [['unit', i16], ['bitWidth', i32]] }],
  [10, { name: 'Timestamp', fields: [['unit', i16], ['timezone', str]] }],
  [11, { name: 'Interval', fields: [['unit', i16]] }],
  [14, { name: 'Union', fields: [['mode', i16], ['typeIds', { kind: 'vector', size: 4 }]] }],
  [15, { name: 'FixedSizeBinary', fields: [['byteWidth', i32]] }],
  [16, { name: 'FixedSizeList', fields: [['listSize', i32]] }],
  [17, { name: 'Map', fields: [['keysSorted', u8]] }],
  [18, { name: 'Duration', fields: [['unit', i16]] }],
]);

const INT = TYPE_TABLES.get(2) as FlatTable;

const DICTIONARY_ENCODING: FlatTable = {
  name: 'DictionaryEncoding',
  fields: [['id', i64], ['indexType', { kind: 'table', shape: () => INT }], ['isOrdered', u8], ['dictionaryKind', i16]],
};

const FIELD: FlatTable = {
  name: 'Field',
  fields: [
    ['name', str],
    ['nullable', u8],
    ['type_type', u8],
    ['type', { kind: 'union', typeSlot: 2, shapes: (type) => TYPE_TABLES.get(type) }],
    ['dictionary', { kind: 'table', shape: () => DICTIONARY_ENCODING }],
    ['children', { kind: 'tables', shape: () => FIELD }],
    ['custom_metadata', keyValues],
  ],
};

/** `Schema` (the first message of a stream; the footer's copy). */
export const SCHEMA: FlatTable = {
  name: 'Schema',
  fields: [['endianness', i16], ['fields', { kind: 'tables', shape: () => FIELD }], ['custom_metadata', keyValues], ['features', { kind: 'vector', size: 8 }]],
};

const BODY_COMPRESSION: FlatTable = { name: 'BodyCompression', fields: [['codec', u8], ['method', u8]] };

const RECORD_BATCH: FlatTable = {
  name: 'RecordBatch',
  fields: [
    ['length', i64],
    ['nodes', { kind: 'vector', size: 16 }],
    ['buffers', { kind: 'vector', size: 16 }],
    ['compression', { kind: 'table', shape: () => BODY_COMPRESSION }],
    ['variadicBufferCounts', { kind: 'vector', size: 8 }],
  ],
};

const DICTIONARY_BATCH: FlatTable = {
  name: 'DictionaryBatch',
  fields: [['id', i64], ['data', { kind: 'table', shape: () => RECORD_BATCH }], ['isDelta', u8]],
  required: [1],
};

/** `MessageHeader` union members apache-arrow reads: 1 Schema, 2 DictionaryBatch, 3 RecordBatch. */
const HEADERS: ReadonlyMap<number, FlatTable> = new Map([
  [1, SCHEMA],
  [2, DICTIONARY_BATCH],
  [3, RECORD_BATCH],
]);

/** `Message`: the metadata of every message of a stream. */
export const MESSAGE: FlatTable = {
  name: 'Message',
  fields: [
    ['version', i16],
    ['header_type', u8],
    ['header', { kind: 'union', typeSlot: 1, shapes: (type) => HEADERS.get(type) }],
    ['bodyLength', i64],
    ['custom_metadata', keyValues],
  ],
};

/** `Footer`: the end of the file format (its schema and where its blocks lie; a `Block` is a 24-byte struct). */
export const FOOTER: FlatTable = {
  name: 'Footer',
  fields: [
    ['version', i16],
    ['schema', { kind: 'table', shape: () => SCHEMA }],
    ['dictionaries', { kind: 'vector', size: 24 }],
    ['recordBatches', { kind: 'vector', size: 24 }],
    ['custom_metadata', keyValues],
  ],
  required: [1],
};

#!/usr/bin/env node
// bench/sabaki_parse.js — the peer of bench_sgf_parse: @sabaki/sgf (pinned in
// package.json, installed into bench/node_modules) parsing the same SGF files.
//
// usage: node sabaki_parse.js FOLDER [MIN_SECONDS]
// Reads every .sgf under FOLDER into memory first (Buffers, and strings decoded
// as UTF-8), then times two passes over all of them, repeated until MIN_SECONDS:
//   parse        sgf.parse(string): parsing only, text already decoded (the
//                fastest way to use the library, favourable to it);
//   parseBuffer  sgf.parseBuffer(buffer): with its encoding detection, which is
//                what our parser does too (BOM / CA / UTF-8 repair).
// Prints one line per mode: "sabaki MODE: files N bytes B games G seconds S
// MB/s X games/s Y". Games = root nodes returned (sabaki recovers from broken
// files instead of failing them).
'use strict'
const fs = require('fs')
const path = require('path')
const sgf = require('@sabaki/sgf')

function walk(dir, out) {
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name)
    const st = fs.statSync(p)
    if (st.isDirectory()) walk(p, out)
    else if (name.toLowerCase().endsWith('.sgf')) out.push(p)
  }
  return out
}

const dir = process.argv[2]
const minSeconds = Number(process.argv[3] || 2)
if (!dir) {
  console.error('usage: node sabaki_parse.js FOLDER [MIN_SECONDS]')
  process.exit(2)
}
const files = walk(dir, [])
const buffers = files.map(f => fs.readFileSync(f))
const strings = buffers.map(b => b.toString('utf8'))
const bytes = buffers.reduce((s, b) => s + b.length, 0)

function run(mode, items, fn) {
  let rounds = 0, games = 0, failed = 0
  const t0 = process.hrtime.bigint()
  let secs = 0
  do {
    for (const x of items) {
      try {
        games += fn(x).length
      } catch (e) {
        failed++
      }
    }
    rounds++
    secs = Number(process.hrtime.bigint() - t0) / 1e9
  } while (secs < minSeconds)
  const mb = bytes * rounds / 1e6
  console.log(`sabaki ${mode}: files ${files.length} bytes ${bytes} games ${games / rounds} ` +
              `failed ${failed / rounds} rounds ${rounds} seconds ${secs.toFixed(3)} ` +
              `MB/s ${(mb / secs).toFixed(2)} games/s ${(games / secs).toFixed(1)}`)
}

run('parse', strings, s => sgf.parse(s))
run('parseBuffer', buffers, b => sgf.parseBuffer(b))

// The functions of the widgets' modules and their lengths in lines, as JSON: one [file, name, first line, lines]
// a function (arrow functions and methods included), read with TypeScript's parser from widgets/node_modules.
// Used by tests/test_architecture.py.   node tests/js/function_lengths.cjs widgets/raupe.js ...
"use strict";
const path = require("path");
const fs = require("fs");
const ts = require(path.resolve(__dirname, "../../widgets/node_modules/typescript"));

const found = [];
for (const file of process.argv.slice(2)) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const line = (position) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const named = node.name || (node.parent && node.parent.name);
      const first = line(node.getStart());
      found.push([path.basename(file), named ? named.getText() : "(anonymous)", first, line(node.end) - first + 1]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
process.stdout.write(JSON.stringify(found));

// What dom.js's h(), append() and replace() take as children: nodes, text (numbers written out),
// nothing (null, undefined, false), and lists of these at any depth, flattened. Declared here
// because a JSDoc @typedef cannot refer to itself.
export type Child = Node | string | number | null | undefined | false | Child[]

// Types for the one package Prism's modules come from that ships none.
declare module '@stoplight/json-schema-merge-allof' {
  const mergeAllOf: (schema: object, options: object) => object;
  export default mergeAllOf;
}

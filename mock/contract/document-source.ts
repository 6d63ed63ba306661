// Where the documents of a contract come from: the file system and the network in Node, anything else elsewhere.

/** Reads and places the documents a contract is made of (see node/read-document.ts for files and URLs). */
export interface DocumentSource {
  /**
   * The parsed document at `location` (the contract, or a file it refers to).
   * @param what how errors name it: `the contract X`, `the file X (referred to by …)`
   * @throws ContractError when it cannot be read or is not YAML or JSON
   */
  read(location: string, what: string): Promise<unknown>;
  /** The location a reference's address (the part before `#`) names, read from the document at `base`. */
  locate(address: string, base: string): string;
  /** The key a referred document is kept under inside the contract: its path from the contract's, or its URL. */
  keyOf(location: string, root: string): string;
}

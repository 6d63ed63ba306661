// Unit tests import core modules directly: Prism's modules are installed first, as every entry point does.
import '../../mock/node/prism-modules.js';

// `npm start`: starts the products on their embedded defaults. Filled in as products gain servers.
console.log('Evident: no product servers yet.');

console.log('worker');

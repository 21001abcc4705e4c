console.log("marketlens");

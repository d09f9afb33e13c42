// Stylesheets imported by components are irrelevant under jsdom.
module.exports = {};

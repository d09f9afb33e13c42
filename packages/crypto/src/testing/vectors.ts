// Values of docs/protocol.md#test-vectors that more than one suite needs (this package's vector tests, the server's SRP
// login from a vector-registered verifier). Test data only: no app code imports it.

/** SRP: the identity whose login sub-key is derived from the KEK 0x00..0x1f, and its verifier. */
export const srpVector = {
  identity: {
    srpUserID: '00000000-0000-4000-8000-000000000000',
    srpSalt: 'EBESExQVFhcYGRobHB0eHw==',
    loginSubKey: 'aXC100RC/RF4ioO0tX4ecg==',
  },
  verifier:
    '7QL5WcuNv7gbYiqUBdpZP3IqZMKB3DSuK9Xwabr+j74a6eEZ3LFpJhOI+6NqflXdHb0R/ifdgYdT8tysdKFsaL1sgDPaVS+i/TkZxaaCungW54Xemv6b3PF1opXygpMQNJykv9EvQoRPaLasT7henXUe+TOmK9Wl5S1y7OGjI7WJquFlio2PlVAGz12fLErVnhvsoTXFtJ1uiqNDMR4CumBIMsklfA5y66t2DgVXR4OrXrjdzYe+y8tuJzjz+UX/TR8DSoUVqK0ItCpjWHLJJGybny67sDZSzyCOCbsjNz9nw5bwkqH1zSxzksW/YGKk2ZFcYC2FMV+YXJweeIFaLhVHQSwwgsIqt1vgUMbmFTqG38yZCT7B0RZHWsYiorQGFksHOo8++521JAErLHMqykfSQSBQtZ/GVTFa2a2wM1O1ZGMiaLhLpPRIFxKH/0y21oKgf7WUfMoA5MldgVPT2u7aON1/GYdmG+NoZ8R7SO6b/xVSLgB0/iPvvaWK9RgAwlL32An41kDhuwOQB7jGyM3s/3fEywnR4xMjteRFW+/fSa+tNlBSMCWhn5gPwEFXXCb+o1U2UzT5AR977PCLHOGeuydGNfX9NtrAoqfPjl+ImcYOCGPfDXtrnW4bqRhIxXe04DCiEoY4w8IRZBYpCJSC5d3dJrZRrA7dWbbQJas=',
};

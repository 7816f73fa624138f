// JupyterLab draws an image output as <img> with no alt text: its renderImage() reads the
// output's width and height from the metadata, never "alt" (jupyter/enhancement-proposals#120).
// The course puts each figure's description in the output metadata ({"image/png": {"alt": ...}},
// helpers.course.style.describe), and nbconvert and the slides show it. This plugin
// gives JupyterLab's image renderer the same: after drawing the image, set its alt.
import { IRenderMimeRegistry, RenderedImage, imageRendererFactory } from '@jupyterlab/rendermime';

class DescribedImage extends RenderedImage {
  async render(model) {
    await super.render(model);
    const alt = (model.metadata[this.mimeType] || {}).alt;
    const img = this.node.querySelector('img');
    if (img && typeof alt === 'string') {
      img.alt = alt;
    }
  }
}

export default {
  id: 'why-transformers-image-alt:plugin',
  description: 'Show an image output\'s metadata alt as the alt text of its <img>',
  autoStart: true,
  requires: [IRenderMimeRegistry],
  activate: (app, rendermime) => {
    // the same factory (PNG, JPEG, GIF, WebP, BMP) at the same rank, with the renderer above
    rendermime.addFactory(
      { ...imageRendererFactory, createRenderer: options => new DescribedImage(options) },
      rendermime.getRank('image/png')
    );
  }
};
